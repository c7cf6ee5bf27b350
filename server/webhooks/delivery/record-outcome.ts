// Applies attempts' results atomically: each attempt row, and its delivery's
// new state (delivered, pending with its retry time, or expired). One SQL
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
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { sqlQuery, type SqlTx } from "../../platform/db/sql-transaction.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";

export type Outcome = { state: "delivered" } | { state: "pending"; retryAt: Date } | { state: "expired" };

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

type RecordOptions = {
  delivery: ClaimedDelivery;
  workerId: string;
  now: Date;
  attempt: AttemptRecord | null;
  outcome: Outcome;
};
type Pending = { row: ReturnType<typeof toRow>; resolve: (applied: boolean) => void; reject: (e: unknown) => void };

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
    batch.push({ row: toRow(options), resolve, reject });
  });
}

/** The same write for one outcome inside an open transaction (an expiry settles the lane in it: record-expiry.ts). */
export async function recordOutcomeInTransaction(tx: SqlTx, options: RecordOptions): Promise<boolean> {
  const row = toRow(options);
  return (await tx.query<{ id: string }>(outcomeStatement([row]))).length === 1;
}

function toRow({ delivery, attempt, outcome, now, workerId }: RecordOptions) {
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
    state: outcome.state,
    attemptInc: attempt ? 1 : 0,
    hasAttempt: attempt !== null,
    retryAt: outcome.state === "pending" ? outcome.retryAt.toISOString() : null,
    finishedAt: outcome.state === "pending" ? null : now.toISOString(),
    claimedBy: workerId,
    claimedAt: delivery.claimedAt.toISOString(),
    attempt: a.attempt,
    startedAt: a.startedAt.toISOString(),
    durationMs: a.durationMs,
    url: a.url,
    requestHeaders: a.requestHeaders,
    status: a.status,
    responseHeaders: a.responseHeaders,
    bodyExcerpt: a.bodyExcerpt,
    error: a.error,
  };
}

async function flush(db: DbClient) {
  const batch = batches.get(db) ?? [];
  batches.delete(db);
  try {
    const done = await sqlQuery<{ id: string }>(db, outcomeStatement(batch.map((p) => p.row)));
    const applied = new Set(done.map((r) => r.id));
    for (const p of batch) p.resolve(applied.has(p.row.id));
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
          "claimedBy" text, "claimedAt" timestamptz, attempt int, "startedAt" timestamptz, "durationMs" int, url text,
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
        RETURNING d.id
      ), recorded AS (
        INSERT INTO "WebhookAttempt" ("deliveryId", attempt, "startedAt", "durationMs", url, "requestHeaders", status, "responseHeaders", "bodyExcerpt", error)
        SELECT x.id, x.attempt, x."startedAt", x."durationMs", x.url, x."requestHeaders", x.status, NULLIF(x."responseHeaders", 'null'::jsonb), x."bodyExcerpt", x.error
        FROM x JOIN done ON done.id = x.id
        WHERE x."hasAttempt"
        RETURNING 1
      )
      SELECT id::text AS id FROM done`;
}
