// Dequeue: ONE statement (HOUSE-STYLE habit 9). The CTE picks lane heads that
// are ready — the oldest unfinished row of its (integration, incident) lane,
// either pending and due, or delivering with a lease that ran out (its worker
// died: crash recovery retries it with the same Service-Request-Id) — and locks
// them FOR UPDATE SKIP LOCKED; the UPDATE claims them in the same statement.
//
// Why this shape: a lane's head is "no unfinished row with a smaller id"
// (NOT EXISTS over the partial lane index), so a lane whose head is in flight
// or waiting for its retry offers nothing, which is what keeps each incident
// strictly sequential across any number of workers; SKIP LOCKED lets two workers
// run the statement at once without waiting on each other's rows, and a row a
// concurrent claimer has just committed is re-checked (state = 'delivering')
// and skipped. The alternative, a lanes table with a head pointer, needs a
// second write per event; this shape needs none, and with 5,000 pending rows
// over 1,000 lanes the statement stays ~1 ms (it walks the due index and stops
// at the first `limit` heads). Measured (bench/webhook-delivery.bench.ts, on a
// 2-core machine shared with other load): a pre-planned outbox drains at
// ~620-670 events/s on embedded PG 18 and external PG 15, against ~4,750 req/s
// for a bare loop to the same receiver: the worker's per-event cost was two
// Prisma raw round trips (claim, record) in one Node thread, not the SQL; both
// now go to the pg pool under Prisma (sql-transaction.ts): see README "Measured".
// Time is a bound parameter from the workbench clock, never now(), with one
// deliberate exception: the lease. It answers "is the claiming worker still
// alive?", a question of real time shared by every worker process, so it is
// kept on the database's clock (clock_timestamp()). On the workbench clock, a
// jump ahead while an attempt was in flight let a second worker claim the same
// head and send it again, breaking "never two attempts of one incident in flight".
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { sqlQuery } from "../../platform/db/sql-transaction.ts";

export type ClaimedDelivery = {
  id: bigint; requestId: string; integrationKey: string; agencyId: string; incidentId: string; eventName: string;
  method: string; path: string; body: unknown; producedAt: Date; attemptCount: number; claimedAt: Date;
};

export async function claimDeliveries(db: DbClient, options: { now: Date; leaseMs: number; workerId: string; limit: number }): Promise<ClaimedDelivery[]> {
  const { now, workerId, limit, leaseMs } = options;
  const rows = await sqlQuery<Omit<ClaimedDelivery, "id"> & { id: string }>(db, Prisma.sql`
    WITH ready AS (
      SELECT d.id
      FROM "WebhookDelivery" d
      WHERE ((d.state = 'pending' AND d."nextAttemptAt" <= ${now})
          OR (d.state = 'delivering' AND d."leaseExpiresAt" <= clock_timestamp()))
        AND NOT EXISTS (
          SELECT 1 FROM "WebhookDelivery" p
          WHERE p."integrationKey" = d."integrationKey" AND p."incidentId" = d."incidentId"
            AND p.state IN ('pending', 'delivering') AND p.id < d.id)
      ORDER BY d."nextAttemptAt", d.id
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "WebhookDelivery" d
    SET state = 'delivering', "claimedAt" = ${now}, "claimedBy" = ${workerId},
        "leaseExpiresAt" = clock_timestamp() + ${leaseMs}::int * interval '1 millisecond'
    FROM ready
    WHERE d.id = ready.id
    RETURNING d.id, d."requestId", d."integrationKey", d."agencyId", d."incidentId", d."eventName", d.method, d.path, d.body,
              d."producedAt", d."attemptCount", d."claimedAt"`);
  return rows.map((r) => ({ ...r, id: BigInt(r.id) }));
}

/**
 * How long until the worker should look again, in ms (null: nothing scheduled):
 * the earliest pending due time (workbench clock, against `now`) or the earliest
 * running lease end (real time, against the database's clock). One index each.
 */
export async function nextWakeInMs(db: DbClient, options: { now: Date }): Promise<number | null> {
  const [row] = await sqlQuery<{ due: Date | null; leaseInMs: number | null }>(db, Prisma.sql`
    SELECT (SELECT min("nextAttemptAt") FROM "WebhookDelivery" WHERE state = 'pending') AS due,
           (SELECT (extract(epoch FROM min("leaseExpiresAt") - clock_timestamp()) * 1000)::float8
              FROM "WebhookDelivery" WHERE state = 'delivering') AS "leaseInMs"`);
  const candidates = [row?.due ? row.due.getTime() - options.now.getTime() : null, row?.leaseInMs ?? null].filter((d): d is number => d !== null);
  return candidates.length ? Math.max(0, Math.min(...candidates)) : null;
}
