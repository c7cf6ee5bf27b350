// Applies one attempt's result in one transaction: the attempt row, and the
// delivery's new state (delivered, pending with its retry time, or expired).
// Guarded by the claim (claimedBy + claimedAt): if this worker's lease ran out
// and another worker re-claimed the row, this late result changes nothing.
import type { DbClient } from "../../platform/db/client.ts";
import { Prisma } from "../../platform/db/client.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";

export type Outcome = { state: "delivered" } | { state: "pending"; retryAt: Date } | { state: "expired" };

export type AttemptRecord = {
  attempt: number; startedAt: Date; durationMs: number; url: string; requestHeaders: Record<string, string>;
  status: number | null; responseHeaders: Record<string, string> | null; bodyExcerpt: string | null; error: string | null;
};

export async function recordOutcome(db: DbClient, options: { delivery: ClaimedDelivery; workerId: string; now: Date; attempt: AttemptRecord | null; outcome: Outcome }): Promise<boolean> {
  const { delivery, attempt, outcome, now } = options;
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: delivery.id, state: "delivering", claimedBy: options.workerId, claimedAt: delivery.claimedAt },
      data: {
        state: outcome.state,
        attemptCount: attempt ? { increment: 1 } : undefined,
        nextAttemptAt: outcome.state === "pending" ? outcome.retryAt : undefined,
        claimedAt: null, claimedBy: null,
        finishedAt: outcome.state === "pending" ? null : now,
      },
    });
    if (count === 1 && attempt) {
      await tx.webhookAttempt.create({
        data: {
          deliveryId: delivery.id, attempt: attempt.attempt, startedAt: attempt.startedAt, durationMs: attempt.durationMs, url: attempt.url,
          requestHeaders: attempt.requestHeaders, status: attempt.status,
          responseHeaders: attempt.responseHeaders ?? Prisma.DbNull, bodyExcerpt: attempt.bodyExcerpt, error: attempt.error,
        },
      });
    }
    return count === 1;
  });
}
