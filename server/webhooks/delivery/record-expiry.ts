// Marks a claimed delivery expired and, in the SAME transaction, applies what
// that means for the receiver's tracks (decide-expired-track.ts): the lane's
// fullTracks, and a queued append rewritten into a whole-track PUT.
//
// The transaction first locks the incident row, as the aggregate does for every
// change (apply-change.ts): the planner reads the lane and plans appends under
// that lock, so it either commits its rows before we look at the queue, or plans
// against the lane we leave. Without it an append planned concurrently from the
// old fullTracks could slip in behind the expired PUT unseen. FOR NO KEY UPDATE
// is enough to conflict with the aggregate's FOR UPDATE, and does not block the
// foreign-key checks of rows that reference the incident.
//
// Expiry is rare (one hour of failures), so an interactive transaction is
// affordable here, unlike recordOutcome's one-statement hot path; its wait is
// generous because a mass expiry after a 61-minute jump runs many at once.
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import type { DbClient } from "../../platform/db/client.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";
import { decideExpiredTrack, type OutboxEvent } from "./decide-expired-track.ts";
import { recordOutcome, type AttemptRecord } from "./record-outcome.ts";
import { renderWholeTrack } from "./render-whole-track.ts";

export type RewrittenDelivery = { deliveryId: bigint; requestId: string; method: string; path: string; eventName: string };

type Queued = OutboxEvent & { requestId: string; changeSeq: number; producedAt: Date };

/** Returns null when the claim was lost (another worker re-claimed the row: nothing was changed). */
export async function recordExpiry(db: DbClient, options: { delivery: ClaimedDelivery; workerId: string; now: Date; attempt: AttemptRecord | null }): Promise<{ rewritten: RewrittenDelivery[] } | null> {
  const { delivery: row, now } = options;
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "Incident" WHERE id = ${row.incidentId}::uuid FOR NO KEY UPDATE`;
    const applied = await recordOutcome(tx, { ...options, outcome: { state: "expired" } });
    if (!applied) return null;

    const [lane] = await tx.$queryRaw<Array<{ fullTracks: string[] }>>`
      SELECT "fullTracks" FROM "WebhookLane" WHERE "integrationKey" = ${row.integrationKey} AND "incidentId" = ${row.incidentId}::uuid FOR UPDATE`;
    if (!lane) return { rewritten: [] };
    const queued = await tx.$queryRaw<Queued[]>`
      SELECT id, "requestId"::text AS "requestId", method, path, body, "changeSeq", "producedAt"
      FROM "WebhookDelivery"
      WHERE "integrationKey" = ${row.integrationKey} AND "incidentId" = ${row.incidentId}::uuid AND state = 'pending' AND id > ${row.id}
      ORDER BY id`;
    const decision = decideExpiredTrack({ incidentId: row.incidentId, expired: row, fullTracks: lane.fullTracks, queued });
    if (!decision) return { rewritten: [] };

    const rewritten: RewrittenDelivery[] = [];
    for (const rewrite of decision.rewrites) {
      const append = queued.find((q) => q.id === rewrite.deliveryId)!;
      const change = await tx.incidentChange.findUnique({ where: { incidentId_seq: { incidentId: row.incidentId, seq: append.changeSeq } }, select: { snapshot: true } });
      // The change record lives as long as the incident (cascade): missing, the append cannot be
      // re-rendered, so it stays an append (a hole) — never a hand-made body.
      if (!change) continue;
      const event = renderWholeTrack(rewrite.track, { snapshot: change.snapshot as TIncidentSnapshotV3, requestId: append.requestId, producedAt: append.producedAt });
      await tx.$executeRaw`
        UPDATE "WebhookDelivery" SET method = ${event.method}, path = ${event.path}, "eventName" = ${event.eventName}, body = ${JSON.stringify(event.body)}::jsonb
        WHERE id = ${append.id} AND state = 'pending'`;
      rewritten.push({ deliveryId: append.id, requestId: append.requestId, method: event.method, path: event.path, eventName: event.eventName });
    }
    await tx.$executeRaw`
      UPDATE "WebhookLane" SET "fullTracks" = ${decision.fullTracks}::text[], "updatedAt" = ${now}::timestamptz
      WHERE "integrationKey" = ${row.integrationKey} AND "incidentId" = ${row.incidentId}::uuid`;
    return { rewritten };
  }, { timeout: 15_000, maxWait: 15_000 });
}
