// Applies one attempt's result atomically: the attempt row, and the delivery's
// new state (delivered, pending with its retry time, or expired). One SQL
// statement (data-modifying CTEs) rather than an interactive transaction: under
// a burst (bench: 64 deliveries in flight beside 16 committers) interactive
// transactions queued for a pool connection and failed with P2028 ("Unable to
// start a transaction in the given time"); a single statement needs no
// transaction slot and one round trip.
// Guarded by the claim (claimedBy + claimedAt): if this worker's lease ran out
// and another worker re-claimed the row, this late result changes nothing.
import type { DbClient, Prisma } from "../../platform/db/client.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";

export type Outcome = { state: "delivered" } | { state: "pending"; retryAt: Date } | { state: "expired" };

export type AttemptRecord = {
  attempt: number; startedAt: Date; durationMs: number; url: string; requestHeaders: Record<string, string>;
  status: number | null; responseHeaders: Record<string, string> | null; bodyExcerpt: string | null; error: string | null;
};

/** `db` may be an open transaction: an expiry is recorded inside its own (record-expiry.ts). */
export async function recordOutcome(db: DbClient | Prisma.TransactionClient, options: { delivery: ClaimedDelivery; workerId: string; now: Date; attempt: AttemptRecord | null; outcome: Outcome }): Promise<boolean> {
  const { delivery, attempt, outcome, now } = options;
  const retryAt = outcome.state === "pending" ? outcome.retryAt : null;
  const finishedAt = outcome.state === "pending" ? null : now;
  const a = attempt ?? { attempt: 0, startedAt: now, durationMs: 0, url: "", requestHeaders: {}, status: null, responseHeaders: null, bodyExcerpt: null, error: null };
  const [row] = await db.$queryRaw<Array<{ n: number }>>`
    WITH done AS (
      UPDATE "WebhookDelivery"
      SET state = ${outcome.state}::"WebhookDeliveryState",
          "attemptCount" = "attemptCount" + ${attempt ? 1 : 0}::int,
          "nextAttemptAt" = COALESCE(${retryAt}::timestamptz, "nextAttemptAt"),
          "claimedAt" = NULL, "claimedBy" = NULL,
          "finishedAt" = ${finishedAt}::timestamptz
      WHERE id = ${delivery.id} AND state = 'delivering' AND "claimedBy" = ${options.workerId} AND "claimedAt" = ${delivery.claimedAt}::timestamptz
      RETURNING id
    ), recorded AS (
      INSERT INTO "WebhookAttempt" ("deliveryId", attempt, "startedAt", "durationMs", url, "requestHeaders", status, "responseHeaders", "bodyExcerpt", error)
      SELECT id, ${a.attempt}::int, ${a.startedAt}::timestamptz, ${a.durationMs}::int, ${a.url}, ${JSON.stringify(a.requestHeaders)}::jsonb, ${a.status}::int,
             ${a.responseHeaders ? JSON.stringify(a.responseHeaders) : null}::jsonb, ${a.bodyExcerpt}, ${a.error}
      FROM done WHERE ${attempt !== null}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM done)::int AS n`;
  return row?.n === 1;
}
