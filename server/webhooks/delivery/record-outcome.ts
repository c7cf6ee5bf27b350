// Applies attempts' results atomically: each attempt row, and its delivery's
// new state (delivered, pending with its retry time, expired or superseded). One SQL
// statement (data-modifying CTEs) rather than an interactive transaction: under
// a burst (bench: 64 deliveries in flight beside 16 committers) interactive
// transactions queued for a pool connection and failed with P2028 ("Unable to
// start a transaction in the given time"); a single statement needs no
// transaction slot and one round trip.
//
// Batched: the outcomes that finish in one turn of the event loop are written
// by ONE statement (jsonb_to_recordset), so a worker draining a backlog pays a
// round trip per turn rather than per event (docs/decisions/0012: drain rate).
// Each row is still guarded by its own claim (claimedBy + claimedAt): if this
// worker's lease ran out and another worker re-claimed the row, this late
// result changes nothing, and only that caller learns it (false).
//
// A delivered row may claim its lane's next event in the same statement (`claimNext`): the lane's
// head is finished and its successor claimed for the same worker atomically, so a busy lane goes
// from one event to the next without a claim of its own (a round trip and a lane scan per event
// before). Nothing else can take the successor meanwhile: it becomes a head only when this
// statement commits, and it is claimed by then. The rows after the successor are claimed too, up to
// LANE_CLAIM_DEPTH rows behind the delivered one, each only when every row before it is claimed now
// or this worker's already: the worker keeps them in lane order and sends each as soon as the attempt
// before it is delivered, while that attempt's record is still being written (docs/decisions/0031,
// 0042). Claiming is not sending: a lane still has one attempt at a time.
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { sqlQuery, type SqlTx } from "../../platform/db/sql-transaction.ts";
import { claimedColumns, laneKey, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { LANE_CLAIM_DEPTH } from "../outbox/lane-statements.ts";
import { toStorableText } from "../../platform/json-input.ts";

/** `superseded`: finished unsent (or not sent again) for a declaration of another major version (record-supersession.ts). */
export type Outcome =
  { state: "delivered" } | { state: "pending"; retryAt: Date } | { state: "expired" } | { state: "superseded" };

export type AttemptRecord = {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  url: string;
  requestHeaders: Record<string, string>;
  status: number | null;
  responseHeaders: Record<string, string> | null;
  bodyExcerpt: string | null;
  error: string | null;
};

/** Claim the lane's next event when this one is delivered, and hand it to `take`. */
export type ClaimNext = {
  /** The successor's lease, as the worker's claims set it. */
  leaseMs: number;
  /**
   * `claimedAtMs`: performance.now() before the statement, when the lease may have started. `after`:
   * the id of the lane's row this one directly follows (the delivered row, or the successor claimed
   * before it); a lane's successors come in lane order.
   */
  take: (row: ClaimedDelivery, claimedAtMs: number, after: bigint) => void;
  /**
   * How many plans the worker has heard of so far (a counter): read before the statement, passed to
   * `none`, which can tell whether a plan committed while the statement ran.
   */
  plansHeard: () => number;
  /** The delivered event was its lane's last unfinished one as the statement saw it. */
  none: (lane: string, plansHeardBefore: number) => void;
};

type RecordOptions = {
  delivery: ClaimedDelivery;
  workerId: string;
  now: Date;
  attempt: AttemptRecord | null;
  outcome: Outcome;
  claimNext?: ClaimNext;
};
type Pending = {
  row: ReturnType<typeof toRow>;
  claimNext: ClaimNext | undefined;
  /** claimNext.plansHeard() when the statement was sent. */
  plansHeard?: number;
  resolve: (applied: boolean) => void;
  reject: (e: unknown) => void;
};

const batches = new WeakMap<DbClient, Pending[]>();

/** Resolves true when the result was applied (the claim still held), false when a later claim owns the row. */
export function recordOutcome(db: DbClient, options: RecordOptions): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let batch = batches.get(db);
    if (!batch) {
      batch = [];
      batches.set(db, batch);
      setImmediate(() => void flush(db));
    }
    batch.push({ row: toRow(options), claimNext: options.claimNext, resolve, reject });
  });
}

/** The same write for one outcome inside an open transaction (an expiry settles the lane in it: record-expiry.ts). */
export async function recordOutcomeInTransaction(tx: SqlTx, options: RecordOptions): Promise<boolean> {
  const row = toRow(options);
  return (await tx.query<OutcomeRow>(outcomeStatement([row]))).some((r) => r.id === row.id);
}

function toRow({ delivery, attempt, outcome, now, workerId, claimNext }: RecordOptions) {
  const a = attempt ?? {
    attempt: 0,
    startedAt: now,
    durationMs: 0,
    url: "",
    requestHeaders: {},
    status: null,
    responseHeaders: null,
    bodyExcerpt: null,
    error: null,
  };
  return {
    id: delivery.id.toString(),
    integrationKey: delivery.integrationKey,
    incidentId: delivery.incidentId,
    state: outcome.state,
    attemptInc: attempt ? 1 : 0,
    hasAttempt: attempt !== null,
    retryAt: outcome.state === "pending" ? outcome.retryAt.toISOString() : null,
    finishedAt: outcome.state === "pending" ? null : now.toISOString(),
    claimedBy: workerId,
    claimedAt: delivery.claimedAt.toISOString(),
    claimNext: claimNext !== undefined && outcome.state === "delivered",
    leaseMs: claimNext?.leaseMs ?? 0,
    now: now.toISOString(),
    attempt: a.attempt,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    url: a.url,
    requestHeaders: a.requestHeaders,
    status: a.status,
    responseHeaders: a.responseHeaders,
    // The receiver's bytes: NUL or a cut surrogate pair would fail the whole statement (json-input.ts).
    bodyExcerpt: a.bodyExcerpt === null ? null : toStorableText(a.bodyExcerpt),
    error: a.error === null ? null : toStorableText(a.error),
  };
}

/**
 * A row of the statement's answer: a recorded outcome (`id`), a claimed successor (`next`), or a
 * delivered row whose lane has a next event (`followed`, claimed or not).
 */
type OutcomeRow = {
  id: string | null;
  followed: string | null;
  next:
    | (Omit<ClaimedDelivery, "id" | "producedAt" | "claimedAt"> & {
        id: string;
        producedAt: string;
        claimedAt: string;
        prev: string;
      })
    | null;
};

async function flush(db: DbClient) {
  const batch = batches.get(db) ?? [];
  batches.delete(db);
  const claimedAtMs = performance.now();
  for (const p of batch) p.plansHeard = p.claimNext?.plansHeard();
  try {
    const answer = await sqlQuery<OutcomeRow>(db, outcomeStatement(batch.map((p) => p.row)));
    const applied = new Set(answer.map((r) => r.id));
    const followed = new Set(answer.map((r) => r.followed));
    // A lane has one event in flight, so its successor belongs to the batch's row of the same lane.
    const byLane = new Map(batch.map((p) => [laneKey(p.row), p]));
    const claimed = answer
      .flatMap(({ next }) => (next ? [next] : []))
      .map(({ prev, ...next }) => ({
        after: BigInt(prev),
        row: {
          ...next,
          id: BigInt(next.id),
          producedAt: new Date(next.producedAt),
          claimedAt: new Date(next.claimedAt),
        } satisfies ClaimedDelivery,
      }))
      .sort((a, b) => (a.row.id < b.row.id ? -1 : 1)); // a lane's successors in lane order
    for (const { row, after } of claimed) byLane.get(laneKey(row))?.claimNext?.take(row, claimedAtMs, after);
    for (const p of batch) {
      const recorded = applied.has(p.row.id);
      if (recorded && p.row.claimNext && !followed.has(p.row.id)) p.claimNext?.none(laneKey(p.row), p.plansHeard ?? 0);
      p.resolve(recorded);
    }
  } catch (error) {
    for (const p of batch) p.reject(error);
  }
}

/**
 * `d.id = ANY(…)` beside the join: the planner cannot see how few rows jsonb_to_recordset yields and
 * may join it against the whole table; the ids make the update a primary-key lookup per row.
 */
function outcomeStatement(rows: Array<ReturnType<typeof toRow>>): Prisma.Sql {
  return Prisma.sql`
      WITH x AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(
          id bigint, state text, "attemptInc" int, "hasAttempt" boolean, "retryAt" timestamptz, "finishedAt" timestamptz,
          "claimedBy" text, "claimedAt" timestamptz, "claimNext" boolean, "leaseMs" int, now timestamptz, attempt int, "startedAt" timestamptz, "durationMs" int, url text,
          "requestHeaders" jsonb, status int, "responseHeaders" jsonb, "bodyExcerpt" text, error text)
      ), done AS (
        UPDATE "WebhookDelivery" d
        SET state = x.state::"WebhookDeliveryState",
            "attemptCount" = d."attemptCount" + x."attemptInc",
            "nextAttemptAt" = COALESCE(x."retryAt", d."nextAttemptAt"),
            "claimedAt" = NULL, "claimedBy" = NULL, "leaseExpiresAt" = NULL,
            "finishedAt" = x."finishedAt"
        FROM x
        WHERE d.id = x.id AND d.id = ANY(${rows.map((r) => r.id)}::bigint[])
          AND d.state = 'delivering' AND d."claimedBy" = x."claimedBy" AND d."claimedAt" = x."claimedAt"
        -- With what "following" needs of x: joined to x again there, the planner (which can count
        -- neither) compared every row of one with every row of the other, quadratic in the batch.
        RETURNING d.id, d."integrationKey" AS ik, d."incidentId" AS inc,
          x.state = 'delivered' AND x."claimNext" AS "claimNext", x."claimedBy", x.now, x."leaseMs"
      ), recorded AS (
        INSERT INTO "WebhookAttempt" ("deliveryId", attempt, "startedAt", "durationMs", url, "requestHeaders", status, "responseHeaders", "bodyExcerpt", error)
        SELECT x.id, x.attempt, x."startedAt", x."durationMs", x.url, x."requestHeaders", x.status, NULLIF(x."responseHeaders", 'null'::jsonb), x."bodyExcerpt", x.error
        FROM x JOIN done ON done.id = x.id
        WHERE x."hasAttempt"
        RETURNING 1
      ), following AS (
        -- A delivered row's lane's next LANE_CLAIM_DEPTH unfinished rows, by the lane index (the row
        -- comparison the claims use). The statement's snapshot still shows the finished row as
        -- delivering: the next ones are looked for after its id.
        -- "clear": every row before it (of those found) is claimable now or already this worker's.
        SELECT done.id AS after, COALESCE(s.prev, done.id) AS prev, s.id, s.state, s.at, s.rank, s.clear,
               done."claimedBy", done.now, done."leaseMs"
        FROM done
        CROSS JOIN LATERAL (
          SELECT q.*, row_number() OVER w AS rank, lag(q.id) OVER w AS prev,
                 COALESCE(bool_and((q.state = 'pending' AND q.at <= done.now) OR (q.state = 'delivering' AND q.holder = done."claimedBy"))
                   OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), true) AS clear
          FROM (
            SELECT p.id, p."integrationKey" AS ik, p."incidentId" AS inc, p.state, p."nextAttemptAt" AS at, p."claimedBy" AS holder
            FROM "WebhookDelivery" p
            WHERE p.state IN ('pending', 'delivering')
              AND (p."integrationKey", p."incidentId", p.id) > (done.ik, done.inc, done.id)
            ORDER BY p."integrationKey", p."incidentId", p.id LIMIT ${Prisma.raw(String(LANE_CLAIM_DEPTH))}) q
          WHERE q.ik = done.ik AND q.inc = done.inc
          WINDOW w AS (ORDER BY q.id)) s
        WHERE done."claimNext"
      ), successor AS (
        -- A row is claimed when it is pending and due and every row before it (of those found) is
        -- claimed now or already this worker's: the worker sends each as soon as the one before it is
        -- delivered (decisions 0031, 0042). Read from the window above, not by comparing the rows
        -- found with each other: the planner, which cannot count them, did that for every pair.
        SELECT f.id, f.prev, f."claimedBy", f.now, f."leaseMs" FROM following f
        WHERE f.state = 'pending' AND f.at <= f.now AND f.clear
      ), claimed AS (
        -- ANY(ARRAY(…)) as in the claims: the planner cannot count the successors, and joined them
        -- against the whole table (a sequential scan per statement: 30 s change-to-record p99 with
        -- 100,000 earlier deliveries); the array makes each a primary-key lookup. The successors' own
        -- values come through jsonb_to_recordset, which the planner takes for many rows: joined as a
        -- CTE it takes for one, every row found was compared with every successor (64 heads claiming
        -- 256 events: 65,280 comparisons, more than half the statement; bench/outcome-statement).
        UPDATE "WebhookDelivery" d
        SET state = 'delivering', "claimedAt" = s.now, "claimedBy" = s."claimedBy",
            "leaseExpiresAt" = clock_timestamp() + s."leaseMs" * interval '1 millisecond'
        FROM jsonb_to_recordset((SELECT coalesce(jsonb_agg(successor), '[]') FROM successor))
          AS s(id bigint, prev bigint, "claimedBy" text, now timestamptz, "leaseMs" int)
        WHERE d.id = s.id AND d.id = ANY (ARRAY(SELECT id FROM successor)) AND d.state = 'pending'
        RETURNING ${claimedColumns}, s.prev
      )
      SELECT id::text AS id, NULL::jsonb AS next, NULL::text AS followed FROM done
      UNION ALL
      SELECT NULL, to_jsonb(c) || jsonb_build_object('id', c.id::text, 'prev', c.prev::text), NULL -- ids as text: bigints
      FROM claimed c
      UNION ALL
      SELECT NULL, NULL, after::text FROM following WHERE rank = 1`;
}
