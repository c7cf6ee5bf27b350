// An integration's simulated faults (table IntegrationFault, one row per integration and side):
// "receiver", an embedded receiver misbehaving (reference-receiver/faults.ts has its modes), and
// "dispatcher", the engine's own network failing before any receiver is reached
// (webhooks/delivery/dispatcher-fault.ts). Each side validates its modes and announces a change to
// whoever caches it; the window they share is here. Times are the workbench clock's, so
// `workbench clock advance` ends a fault as real time would.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import { parseDuration } from "../platform/time/parse-duration.ts";

export type FaultSide = "receiver" | "dispatcher";

export type StoredFault = { mode: string; startsAt: Date | null; endsAt: Date | null };

export type FaultState = {
  mode: string;
  /** "active" now, "scheduled" for later, or "none" (ok, or the window has passed). */
  state: "active" | "scheduled" | "none";
  startsAt: string | null;
  endsAt: string | null;
  /** Until the fault ends (active) or starts (scheduled); null when open-ended. */
  remainingMs: number | null;
};

/** Active while startsAt <= now < endsAt; a null bound is open. */
export function describeFault(fault: StoredFault | null, nowMs: number): FaultState {
  const none: FaultState = { mode: "ok", state: "none", startsAt: null, endsAt: null, remainingMs: null };
  if (!fault || fault.mode === "ok") return none;
  const startsAt = fault.startsAt?.getTime() ?? null;
  const endsAt = fault.endsAt?.getTime() ?? null;
  if (endsAt !== null && nowMs >= endsAt) return none;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const window = { mode: fault.mode, startsAt: iso(startsAt), endsAt: iso(endsAt) };
  if (startsAt !== null && nowMs < startsAt) return { ...window, state: "scheduled", remainingMs: startsAt - nowMs };
  return { ...window, state: "active", remainingMs: endsAt === null ? null : endsAt - nowMs };
}

/** "+10m" (relative to now) or an ISO timestamp → ms since epoch; undefined when unreadable. */
export function parseStartTime(text: string, nowMs: number): number | undefined {
  if (text.startsWith("+")) {
    const d = parseDuration(text.slice(1));
    return d === undefined ? undefined : nowMs + d;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}

export type SetFaultOptions = {
  db: DbClient;
  clock: Clock;
  key: string;
  mode: string;
  /** How long it lasts, e.g. "10m"; absent = until changed. */
  for?: string;
  /** When it starts: "+5m" or an ISO timestamp (workbench time); absent = now. */
  at?: string;
};

/** Stores one side's fault (its mode already validated by that side) and says what it is now. */
export async function storeFault(options: SetFaultOptions, side: FaultSide): Promise<FaultState> {
  const { db, clock, key, mode } = options;
  const nowMs = clock.nowMs();
  const startsAtMs = options.at ? parseStartTime(options.at, nowMs) : nowMs;
  if (startsAtMs === undefined)
    throw invalidFault("at", `"${options.at}" is not a start time: use +<duration> (e.g. +5m) or an ISO timestamp.`);
  const forMs = options.for ? parseDuration(options.for) : undefined;
  if (options.for && forMs === undefined)
    throw invalidFault("for", `"${options.for}" is not a duration: use e.g. 90s, 10m, 2h.`);
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

export const invalidFault = (field: string, message: string) =>
  new AppError("ValidationFailed", message, [{ field, message }]);
