// The attachment of a listener to an integration, as stored (IntegrationListener): what routes the
// integration's traffic to its listener in every process, and survives the connection and the
// process (decision 0052). A row is replaced by a new attach (a takeover), kept when the
// connection drops, and deleted on a clean detach or when the credential no longer allows it.
import { randomUUID } from "node:crypto";
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { isListenerHeld } from "../../directory/describe-listener.ts";

/** How a routed integration's receiver URL is written where a stored URL would be (receiver-url.ts). */
export const LISTENER_URL_PREFIX = "listen:";
export const listenerUrlOf = (integrationKey: string) => `${LISTENER_URL_PREFIX}${integrationKey}`;

/** A holder refreshes seenAt this often; one not seen for LISTENER_STALE_MS is taken for gone. */
export const LISTENER_HEARTBEAT_MS = 2_000;

type Deps = { db: DbClient; clock: Clock };
export type AttachInput = {
  integrationKey: string;
  caller: { kind: string; name: string; role: string };
  remoteAddress: string;
  forwardTo: string;
  processId: string;
};

/** Attaches (or takes over): a new attachment id, held by `processId` from now. */
export async function attachListener(deps: Deps, input: AttachInput) {
  const now = deps.clock.now();
  const data = {
    attachmentId: randomUUID(),
    callerKind: input.caller.kind,
    callerName: input.caller.name,
    callerRole: input.caller.role,
    remoteAddress: input.remoteAddress,
    forwardTo: input.forwardTo,
    attachedAt: now,
    processId: input.processId,
    seenAt: now,
    disconnectedAt: null,
  };
  return deps.db.integrationListener.upsert({
    where: { integrationKey: input.integrationKey },
    create: { integrationKey: input.integrationKey, ...data },
    update: data,
  });
}

/** The holder is alive; false when the attachment is no longer this one (taken over or detached). */
export async function refreshListener(deps: Deps, attachmentId: string, processId: string): Promise<boolean> {
  const { count } = await deps.db.integrationListener.updateMany({
    where: { attachmentId },
    data: { processId, seenAt: deps.clock.now(), disconnectedAt: null },
  });
  return count > 0;
}

/** The connection dropped: the attachment stays (its integration stays routed to it), unheld. */
export async function markListenerDisconnected(deps: Deps, attachmentId: string): Promise<void> {
  await deps.db.integrationListener.updateMany({
    where: { attachmentId },
    data: { processId: null, disconnectedAt: deps.clock.now() },
  });
}

/** Detaches: the integration goes back to its configured URL. False when it was not attached so. */
export async function detachListener(deps: Pick<Deps, "db">, attachmentId: string): Promise<boolean> {
  const { count } = await deps.db.integrationListener.deleteMany({ where: { attachmentId } });
  return count > 0;
}

/** Why a request for an integration's listener cannot go through this process (it holds no connection). */
export async function describeMissingListener(deps: Deps, integrationKey: string, processId: string) {
  const row = await deps.db.integrationListener.findUnique({ where: { integrationKey } });
  if (!row) return "listener detached: the integration's next attempt goes to its configured URL";
  if (row.processId !== processId && isListenerHeld(row, deps.clock))
    return "listener connected to another workbench process: a retry may reach the one that holds it";
  return "listener not connected: the attempt is retried by the delivery rules until it reconnects";
}

/**
 * A listener (re)attached: its integration's pending events are due now. Their earlier attempts
 * never reached a receiver (the listener was away), so the backoff that protects a receiver has
 * nothing to protect; the lane order is the claim's, unchanged. Time from the workbench clock.
 */
export async function pullListenerRetriesForward(deps: Deps, integrationKey: string): Promise<number> {
  const now = deps.clock.now();
  return deps.db.$executeRaw`
    UPDATE "WebhookDelivery" SET "nextAttemptAt" = ${now}::timestamptz
    WHERE "integrationKey" = ${integrationKey} AND state = 'pending' AND "nextAttemptAt" > ${now}::timestamptz`;
}
