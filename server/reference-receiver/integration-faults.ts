// Storing and reading faults (table IntegrationFault, one row per integration and side).
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import { parseDuration } from "../platform/time/parse-duration.ts";
import {
  describeFault,
  parseReceiverFaultMode,
  parseStartTime,
  RECEIVER_FAULT_MODES,
  type FaultState,
} from "./faults.ts";
import { receiverEvents } from "./receiver-events.ts";
import { requireEmbeddedReceiver } from "./receiver-capabilities.ts";

export type FaultSide = "receiver" | "dispatcher";

type SetFaultOptions = {
  db: DbClient;
  clock: Clock;
  key: string;
  mode: string;
  /** How long it lasts, e.g. "10m"; absent = until changed. */
  for?: string;
  /** When it starts: "+5m" or an ISO timestamp (workbench time); absent = now. */
  at?: string;
};

/** `workbench receiver fault KEY --mode …`: an embedded receiver's misbehaviour. */
export async function setReceiverFault(options: SetFaultOptions): Promise<FaultState> {
  await requireEmbeddedReceiver({ db: options.db, key: options.key });
  if (!parseReceiverFaultMode(options.mode))
    throw invalid("mode", `"${options.mode}" is not a fault mode: use ${RECEIVER_FAULT_MODES}.`);
  return storeFault(options, "receiver");
}

/**
 * A network fault on the dispatcher (engine) side, for any integration, external
 * receivers included: "refused" (connection refused) or "timeout" (no answer).
 * The engine reads it with each integration's delivery target (webhooks/delivery/load-delivery-target.ts).
 */
export async function setDispatcherNetworkFault(options: SetFaultOptions): Promise<FaultState> {
  if (!(await options.db.integration.findUnique({ where: { key: options.key } })))
    throw new AppError("IntegrationNotFound", `No integration "${options.key}".`);
  if (!["ok", "refused", "timeout"].includes(options.mode))
    throw invalid("mode", `"${options.mode}" is not a network fault: use ok|refused|timeout.`);
  return storeFault(options, "dispatcher");
}

async function storeFault(options: SetFaultOptions, side: FaultSide): Promise<FaultState> {
  const { db, clock, key, mode } = options;
  const nowMs = clock.nowMs();
  const startsAtMs = options.at ? parseStartTime(options.at, nowMs, parseDuration) : nowMs;
  if (startsAtMs === undefined)
    throw invalid("at", `"${options.at}" is not a start time: use +<duration> (e.g. +5m) or an ISO timestamp.`);
  const forMs = options.for ? parseDuration(options.for) : undefined;
  if (options.for && forMs === undefined)
    throw invalid("for", `"${options.for}" is not a duration: use e.g. 90s, 10m, 2h.`);
  const row = {
    mode,
    startsAt: new Date(startsAtMs),
    endsAt: forMs === undefined ? null : new Date(startsAtMs + forMs),
    setAt: clock.now(),
  };
  await db.integrationFault.upsert({
    where: { integrationKey_side: { integrationKey: key, side } },
    create: { integrationKey: key, side, ...row },
    update: row,
  });
  receiverEvents.emit("receiver:fault-changed", { integrationKey: key, side, mode });
  return describeFault(row, nowMs);
}

export async function readFault(options: {
  db: DbClient;
  clock: Clock;
  key: string;
  side: FaultSide;
}): Promise<FaultState> {
  const row = await options.db.integrationFault.findUnique({
    where: { integrationKey_side: { integrationKey: options.key, side: options.side } },
  });
  return describeFault(row, options.clock.nowMs());
}

const invalid = (field: string, message: string) => new AppError("ValidationFailed", message, [{ field, message }]);
