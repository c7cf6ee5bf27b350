// One run of the retention pruner (docs/retention.md, docs/decisions/0057): every kind in turn, in
// batches of BATCH_ROWS rows, each batch one short statement, a pause between batches. One process at
// a time when several share a database: the run holds a session advisory lock on a connection of its
// own (a second process finds it taken and skips its run; the lock goes with the connection if the
// process dies). What it pruned is written to RetentionRun for the Admin page.
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "pino";
import type { Clock } from "../../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { sqlPool } from "../../platform/db/sql-transaction.ts";
import { PRUNE_STEPS, type Query } from "./prune-statements.ts";
import {
  addCounts,
  BATCH_ROWS,
  noneCounted,
  PAUSE_MS,
  retentionCutoff,
  type PrunedCounts,
} from "./retention-policy.ts";

export type PruneOutcome =
  { ran: false; reason: "disabled" | "busy" } | { ran: true; cutoff: Date; pruned: PrunedCounts; stopped: boolean };

export type PruneOptions = {
  db: DbClient;
  clock: Clock;
  retentionDays: number;
  logger?: Pick<Logger, "info" | "warn">;
  /** Set `stopped` to end a run after its current batch (the process is stopping). */
  signal?: { stopped: boolean };
  batchRows?: number;
  pauseMs?: number;
  /** Called after each batch (the retention bench times them). */
  onBatch?: (table: string, pruned: number) => void;
};

export async function pruneOldData(options: PruneOptions): Promise<PruneOutcome> {
  const cutoff = retentionCutoff(options.clock.nowMs(), options.retentionDays);
  if (!cutoff) return { ran: false, reason: "disabled" };
  const client = await sqlPool(options.db).connect();
  try {
    const query: Query = async <T>(s: Prisma.Sql) =>
      (await client.query({ text: s.text, values: s.values })).rows as T[];
    const [lock] = await query<{ locked: boolean }>(
      Prisma.sql`SELECT pg_try_advisory_lock(hashtext('workbench.retention')) AS locked`,
    );
    if (!lock?.locked) return { ran: false, reason: "busy" };
    try {
      return await runSteps(query, cutoff, options);
    } finally {
      await query(Prisma.sql`SELECT pg_advisory_unlock(hashtext('workbench.retention'))`);
    }
  } finally {
    client.release();
  }
}

async function runSteps(query: Query, cutoff: Date, options: PruneOptions): Promise<PruneOutcome> {
  const { clock, signal } = options;
  const rows = options.batchRows ?? BATCH_ROWS;
  const pauseMs = options.pauseMs ?? PAUSE_MS;
  const pruned = noneCounted();
  await query(Prisma.sql`
    INSERT INTO "RetentionRun" (id, "retentionDays", cutoff, "startedAt", "finishedAt", pruned, error)
    VALUES (1, ${options.retentionDays}::int, ${cutoff}::timestamptz, ${clock.now()}::timestamptz, NULL, '{}', NULL)
    ON CONFLICT (id) DO UPDATE SET "retentionDays" = EXCLUDED."retentionDays", cutoff = EXCLUDED.cutoff,
      "startedAt" = EXCLUDED."startedAt", "finishedAt" = NULL, pruned = '{}', error = NULL`);
  let error: string | null = null;
  try {
    for (const step of PRUNE_STEPS) {
      let after = 0n;
      for (;;) {
        if (signal?.stopped) break;
        const outcome = await step.batch(query, cutoff, rows, after);
        pruned[step.kind] += outcome.pruned;
        options.onBatch?.(step.table, outcome.pruned);
        after = outcome.after;
        if (!outcome.goesOn) break;
        await sleep(pauseMs);
      }
    }
  } catch (err) {
    error = (err as Error).message;
    throw err;
  } finally {
    await recordRun(query, clock, pruned, error);
    const total = Object.values(pruned).reduce((a, b) => a + b, 0);
    if (total > 0 || error) options.logger?.info({ cutoff, pruned, error }, "retention: old data pruned");
  }
  return { ran: true, cutoff, pruned, stopped: signal?.stopped ?? false };
}

async function recordRun(query: Query, clock: Clock, pruned: PrunedCounts, error: string | null) {
  const [row] = await query<{ prunedTotal: unknown }>(
    Prisma.sql`SELECT "prunedTotal" FROM "RetentionRun" WHERE id = 1`,
  );
  const total = addCounts(row?.prunedTotal, pruned);
  await query(Prisma.sql`
    UPDATE "RetentionRun" SET "finishedAt" = ${clock.now()}::timestamptz, pruned = ${JSON.stringify(pruned)}::jsonb,
      "prunedTotal" = ${JSON.stringify(total)}::jsonb, error = ${error}
    WHERE id = 1`);
}
