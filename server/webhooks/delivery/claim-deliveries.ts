// Dequeue (CONTRIBUTING.md, 'One-statement dequeue'): a claim is one statement, two shapes.
//
// A lane (integration, incident) is strictly sequential: its head is its
// oldest unfinished row, and only a head is ever claimed; a lane whose head is
// in flight or waiting for its retry offers nothing, which keeps each incident
// strictly sequential across any number of workers. Rows are locked FOR UPDATE
// SKIP LOCKED, so two workers run a claim at once without waiting on each
// other, and a row a concurrent claimer has just committed is re-checked
// (state) and skipped. The alternative, a lanes table with a head pointer,
// needs a second write per event; these shapes need none.
//
// 1. The walk (claimByWalk), tried first: the due index in (nextAttemptAt, id)
//    order, one LIMIT-1 index step at a time (a recursive CTE, which PostgreSQL
//    evaluates only as far as its reader asks), each row checked for being its
//    lane's head by one probe of the lane index, until `limit` heads are found.
//    Its cost follows the rows it steps over, not the backlog. Why a recursive
//    walk and not ORDER BY … LIMIT: with a queue's ever-stale statistics the
//    planner chose a bitmap scan, a sort of every due row and a hash anti-join
//    over every unfinished row, so each claim read the whole backlog: 7 ms per
//    claim (0.25 ms per event) with 5,000 events queued, 80 % of PostgreSQL's
//    time in the drain bench (pg_stat_statements). The walk: ~1 ms for 64 heads.
// 2. The lane scan (claimByLaneScan), only when the walk came back short: every
//    ready head of the whole backlog, whatever precedes it in due order. The
//    walk is capped, so a backlog of blocked rows (a receiver down, its queue
//    due but waiting behind a head in retry) cannot make it step over thousands
//    of rows on every claim, and a healthy lane queued behind them in due order
//    is still found by the scan: no worse than before the walk existed.
//
// Time is a bound parameter from the workbench clock, never now(), with one
// deliberate exception: the lease. It answers "is the claiming worker still
// alive?", a question of real time shared by every worker process, so it is
// kept on the database's clock (clock_timestamp()). On the workbench clock, a
// jump ahead while an attempt was in flight let a second worker claim the same
// head and send it again, breaking "never two attempts of one incident in flight".
// A head whose lease ran out (its worker died) is re-claimed by either shape,
// with the same Service-Request-Id (crash recovery).
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { inSqlTransaction, sqlQuery } from "../../platform/db/sql-transaction.ts";
import { claimedColumns, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { firstUnfinishedFrom } from "../outbox/lane-statements.ts";

type ClaimOptions = { now: Date; leaseMs: number; workerId: string; limit: number };

/** After a walk came back short, claims go straight to the lane scan for this long (real time). */
const LANE_SCAN_FOR_MS = 1_000;
const laneScanUntil = new WeakMap<DbClient, number>();

/**
 * Claims up to `limit` ready lane heads: the walk first, the lane scan for what it missed. Once a walk
 * came back short (most due rows sit behind heads in flight: few lanes, each with a queue), the next
 * second of claims use the lane scan alone, which finds every ready head: in the default mode over 64
 * incidents the walk stepped over ~200 rows of busy lanes before every lane scan, 2 ms of PostgreSQL
 * time a claim for nothing.
 */
export async function claimDeliveries(db: DbClient, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  // performance.now() is process time for this heuristic only, not workbench time.
  const at = performance.now();
  if ((laneScanUntil.get(db) ?? 0) > at) return claimByLaneScan(db, options);
  const walked = await claimByWalk(db, options);
  if (walked.length >= options.limit) return walked;
  laneScanUntil.set(db, at + LANE_SCAN_FOR_MS);
  return [...walked, ...(await claimByLaneScan(db, { ...options, limit: options.limit - walked.length }))];
}

/** How many due rows the walk may step over per head it is asked for (plus a few): past that, the lane scan is cheaper. */
const WALK_STEPS_PER_HEAD = 2;

/** What claiming a head writes, the same in both shapes: the claim's workbench time, the worker, the real-time lease. */
const claimAssignments = (
  now: Date,
  workerId: string,
  leaseMs: number,
) => Prisma.sql`state = 'delivering', "claimedAt" = ${now}, "claimedBy" = ${workerId},
        "leaseExpiresAt" = clock_timestamp() + ${leaseMs}::int * interval '1 millisecond'`;

const toClaimed = (rows: Array<Omit<ClaimedDelivery, "id"> & { id: string }>): ClaimedDelivery[] =>
  rows.map((r) => ({ ...r, id: BigInt(r.id) }));

export async function claimByWalk(
  db: DbClient,
  { now, workerId, limit, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  const maxSteps = limit * WALK_STEPS_PER_HEAD + 16;
  const walk = Prisma.sql`
    WITH RECURSIVE walk AS (
      (SELECT d."nextAttemptAt" AS at, d.id, d."integrationKey" AS ik, d."incidentId" AS inc, 1 AS step
       FROM "WebhookDelivery" d
       WHERE d.state = 'pending' AND d."nextAttemptAt" <= ${now}
       ORDER BY d."nextAttemptAt", d.id LIMIT 1)
      UNION ALL
      SELECT n.at, n.id, n.ik, n.inc, w.step + 1
      FROM walk w, LATERAL (
        SELECT d."nextAttemptAt" AS at, d.id, d."integrationKey" AS ik, d."incidentId" AS inc
        FROM "WebhookDelivery" d
        WHERE d.state = 'pending' AND d."nextAttemptAt" <= ${now} AND (d."nextAttemptAt", d.id) > (w.at, w.id)
        ORDER BY d."nextAttemptAt", d.id LIMIT 1) n
      WHERE w.step < ${maxSteps}::int
    ), heads AS (
      -- A walked row is claimed when it is its lane's head (the lane probe: lane-statements.ts).
      SELECT w.id FROM walk w
      WHERE w.id = ${firstUnfinishedFrom(Prisma.sql`w.ik`, Prisma.sql`w.inc`, Prisma.sql`p.id`)}
      LIMIT ${limit}
    ), due AS (
      SELECT d.id FROM "WebhookDelivery" d
      WHERE d.id = ANY (ARRAY(SELECT id FROM heads)) AND d.state = 'pending'
      FOR UPDATE OF d SKIP LOCKED
    ), stale AS (
      -- A lane head only: a dead worker may also have held the event after it (claimed ahead,
      -- decision 0031), which waits for the head like any other.
      SELECT d.id FROM "WebhookDelivery" d
      WHERE d.state = 'delivering' AND d."leaseExpiresAt" <= clock_timestamp()
        AND d.id = ${firstUnfinishedFrom(Prisma.sql`d."integrationKey"`, Prisma.sql`d."incidentId"`, Prisma.sql`p.id`)}
      ORDER BY d."leaseExpiresAt" LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "WebhookDelivery" d
    SET ${claimAssignments(now, workerId, leaseMs)}
    FROM (SELECT id FROM stale UNION ALL SELECT id FROM due LIMIT ${limit}) ready
    WHERE d.id = ready.id
    RETURNING ${claimedColumns}`;
  // The walk only pays off on the due-time index. A queue's statistics are stale by nature: analysed
  // while the outbox was nearly empty, the planner costed the lane index at one row and chose to read
  // all of it and sort, at every step (68 ms a claim once a backlog had formed over a long history;
  // auto_explain). Without sorts, only the due-time index can answer, whatever the statistics say.
  // One round trip still: BEGIN, the setting, the claim and COMMIT are pipelined.
  let claimed: Array<Omit<ClaimedDelivery, "id"> & { id: string }> = [];
  await inSqlTransaction(db, async (tx) => {
    tx.execute(Prisma.sql`SET LOCAL enable_sort = off`).catch(() => {}); // a failure fails the claim below
    tx.finish<Omit<ClaimedDelivery, "id"> & { id: string }>(walk, (rows) => (claimed = rows));
  });
  return toClaimed(claimed);
}

/**
 * Every ready head of the backlog: pending and due, or delivering with a lease that ran out, and the
 * oldest unfinished row of its lane. The lanes' heads are found by a loose index scan of the partial
 * lane index (a recursive CTE that jumps from one lane to the next, one index probe each), so the scan
 * costs one probe per lane with unfinished rows, however many rows queue behind each head. Its first
 * form, NOT EXISTS over the lane index for every unfinished row, read the whole backlog: in the
 * default mode (caller/track over 64 incidents, delivery a little behind) it took 5.9 ms a claim and
 * a third of PostgreSQL's time, which put delivery further behind.
 */
export async function claimByLaneScan(
  db: DbClient,
  { now, workerId, limit, leaseMs }: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  return toClaimed(
    await sqlQuery(
      db,
      Prisma.sql`
    WITH RECURSIVE lane AS (
      (SELECT p."integrationKey" AS ik, p."incidentId" AS inc, p.id
       FROM "WebhookDelivery" p WHERE p.state IN ('pending', 'delivering')
       ORDER BY p."integrationKey", p."incidentId", p.id LIMIT 1)
      UNION ALL
      SELECT n.ik, n.inc, n.id
      FROM lane l, LATERAL (
        SELECT p."integrationKey" AS ik, p."incidentId" AS inc, p.id
        FROM "WebhookDelivery" p
        WHERE p.state IN ('pending', 'delivering') AND (p."integrationKey", p."incidentId") > (l.ik, l.inc)
        ORDER BY p."integrationKey", p."incidentId", p.id LIMIT 1) n
    ), ready AS (
      SELECT d.id
      FROM "WebhookDelivery" d
      WHERE d.id = ANY (ARRAY(SELECT id FROM lane))
        AND ((d.state = 'pending' AND d."nextAttemptAt" <= ${now})
          OR (d.state = 'delivering' AND d."leaseExpiresAt" <= clock_timestamp()))
      ORDER BY d."nextAttemptAt", d.id
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "WebhookDelivery" d
    SET ${claimAssignments(now, workerId, leaseMs)}
    FROM ready
    WHERE d.id = ready.id
    RETURNING ${claimedColumns}`,
    ),
  );
}

/** This worker's claims older than `claimedBefore` (workbench clock): what an outage may have left it holding unknowingly. */
export async function findOwnClaims(
  db: DbClient,
  { workerId, claimedBefore }: { workerId: string; claimedBefore: Date },
): Promise<Array<{ id: bigint; integrationKey: string; incidentId: string }>> {
  const rows = await sqlQuery<{ id: string; integrationKey: string; incidentId: string }>(
    db,
    Prisma.sql`
    SELECT id::text AS id, "integrationKey", "incidentId"::text AS "incidentId" FROM "WebhookDelivery"
    WHERE state = 'delivering' AND "claimedBy" = ${workerId} AND "claimedAt" < ${claimedBefore}`,
  );
  return rows.map((r) => ({ ...r, id: BigInt(r.id) }));
}

/** Puts heads this worker claimed but never sent back to pending (a stopping worker's prefetched claims). */
export async function releaseClaims(
  db: DbClient,
  { ids, workerId }: { ids: bigint[]; workerId: string },
): Promise<number> {
  const rows = await sqlQuery<{ id: string }>(
    db,
    Prisma.sql`
    UPDATE "WebhookDelivery"
    SET state = 'pending', "claimedAt" = NULL, "claimedBy" = NULL, "leaseExpiresAt" = NULL
    WHERE id = ANY(${ids.map(String)}::bigint[]) AND state = 'delivering' AND "claimedBy" = ${workerId}
    RETURNING id`,
  );
  return rows.length;
}

/**
 * How long until the worker should look again, in ms (null: nothing scheduled):
 * the earliest pending due time still ahead (workbench clock, against `now`) or the
 * earliest running lease end (real time, against the database's clock). One index each.
 *
 * Rows already due are not a reason to look again: a claim took every due head it had
 * room for, so what is due and left waits behind its lane's head (whose end claims or
 * wakes), or for a free slot (which wakes). Counted, a queued event behind a busy head
 * made the answer 0 under load: a claim and this read again at once, in a loop.
 */
export async function nextWakeInMs(db: DbClient, options: { now: Date }): Promise<number | null> {
  const [row] = await sqlQuery<{ due: Date | null; leaseInMs: number | null }>(
    db,
    Prisma.sql`
    SELECT (SELECT min("nextAttemptAt") FROM "WebhookDelivery" WHERE state = 'pending' AND "nextAttemptAt" > ${options.now}) AS due,
           (SELECT (extract(epoch FROM min("leaseExpiresAt") - clock_timestamp()) * 1000)::float8
              FROM "WebhookDelivery" WHERE state = 'delivering') AS "leaseInMs"`,
  );
  const candidates = [row?.due ? row.due.getTime() - options.now.getTime() : null, row?.leaseInMs ?? null].filter(
    (d): d is number => d !== null,
  );
  return candidates.length ? Math.max(0, Math.min(...candidates)) : null;
}
