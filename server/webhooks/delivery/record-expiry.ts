// Marks a claimed delivery expired and, in the SAME transaction, applies what
// that means for the receiver's tracks (decide-expired-track.ts): the lane's
// fullTracks, and a queued append rewritten into a whole-track PUT.
//
// The transaction first locks the incident row, which every change of the
// aggregate (apply-change.ts) either holds (locked path) or needs for its write
// (optimistic path, whose UPDATE applies only if the row's xmin did not move
// since its read): a change planned from the lane either commits its rows before
// we look at the queue, or plans against the lane we leave. Without it an append
// planned concurrently from the old fullTracks could slip in behind the expired
// PUT unseen. The lock is taken by bumping the incident's planEpoch (every lane
// writer does: a locked read trusts its lanes only when the epoch did not move
// while it waited, and the bump moves the xmin). An UPDATE of a non-key column
// locks FOR NO KEY UPDATE: it conflicts with the aggregate's FOR UPDATE and its
// UPDATE, and does not block the foreign-key checks of rows that reference the
// incident.
//
// Expiry is rare (one hour of failures), so a transaction of several statements
// is affordable here, unlike recordOutcome's batched hot path.
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import { decideExpiredTrack, type OutboxEvent } from "./decide-expired-track.ts";
import { recordOutcomeInTransaction, type AttemptRecord } from "./record-outcome.ts";
import { renderWholeTrack } from "./render-whole-track.ts";
import { changeSnapshotSql } from "../../incidents/track-storage.ts";

export type RewrittenDelivery = {
  deliveryId: bigint;
  requestId: string;
  method: string;
  path: string;
  eventName: string;
};

type Queued = OutboxEvent & { requestId: string; changeSeq: number; producedAt: Date };
type QueuedRow = Omit<Queued, "id"> & { id: string };

/** Returns null when the claim was lost (another worker re-claimed the row: nothing was changed). */
export async function recordExpiry(
  db: DbClient,
  options: { delivery: ClaimedDelivery; workerId: string; now: Date; attempt: AttemptRecord | null },
): Promise<{ rewritten: RewrittenDelivery[] } | null> {
  const { delivery: row, now } = options;
  return inSqlTransaction(db, async (tx) => {
    await tx.execute(
      Prisma.sql`UPDATE "Incident" SET "planEpoch" = "planEpoch" + 1 WHERE id = ${row.incidentId}::uuid`,
    );
    const applied = await recordOutcomeInTransaction(tx, { ...options, outcome: { state: "expired" } });
    if (!applied) return null;

    const [lane] = await tx.query<{ fullTracks: string[] }>(Prisma.sql`
      SELECT "fullTracks" FROM "WebhookLane" WHERE "integrationKey" = ${row.integrationKey} AND "incidentId" = ${row.incidentId}::uuid FOR UPDATE`);
    if (!lane) return { rewritten: [] };
    const queued = (
      await tx.query<QueuedRow>(Prisma.sql`
      SELECT id::text AS id, "requestId"::text AS "requestId", method, path, body, "changeSeq", "producedAt"
      FROM "WebhookDelivery"
      WHERE "integrationKey" = ${row.integrationKey} AND "incidentId" = ${row.incidentId}::uuid AND state = 'pending' AND id > ${row.id.toString()}::bigint
      ORDER BY id`)
    ).map((q): Queued => ({ ...q, id: BigInt(q.id) }));
    const decision = decideExpiredTrack({
      incidentId: row.incidentId,
      expired: row,
      fullTracks: lane.fullTracks,
      queued,
    });
    if (!decision) return { rewritten: [] };

    const rewritten: RewrittenDelivery[] = [];
    for (const rewrite of decision.rewrites) {
      const append = queued.find((q) => q.id === rewrite.deliveryId)!;
      const [change] = await tx.query<{ snapshot: TIncidentSnapshotV3 }>(Prisma.sql`
        SELECT ${changeSnapshotSql()} AS snapshot FROM "IncidentChange" WHERE "incidentId" = ${row.incidentId}::uuid AND seq = ${append.changeSeq}`);
      // The change record lives as long as the incident (cascade): missing, the append cannot be
      // re-rendered, so it stays an append (a hole) — never a hand-made body.
      if (!change) continue;
      const event = renderWholeTrack(rewrite.track, {
        snapshot: change.snapshot,
        requestId: append.requestId,
        producedAt: append.producedAt,
      });
      await tx.execute(Prisma.sql`
        UPDATE "WebhookDelivery" SET method = ${event.method}, path = ${event.path}, "eventName" = ${event.eventName}, body = ${JSON.stringify(event.body)}::jsonb
        WHERE id = ${append.id.toString()}::bigint AND state = 'pending'`);
      rewritten.push({
        deliveryId: append.id,
        requestId: append.requestId,
        method: event.method,
        path: event.path,
        eventName: event.eventName,
      });
    }
    await tx.execute(Prisma.sql`
      UPDATE "WebhookLane" SET "fullTracks" = ${decision.fullTracks}::text[], "updatedAt" = ${now}::timestamptz
      WHERE "integrationKey" = ${row.integrationKey} AND "incidentId" = ${row.incidentId}::uuid`);
    return { rewritten };
  });
}
