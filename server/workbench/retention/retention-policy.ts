// PURE decisions of the retention pruner (CONTRIBUTING.md, 'Pure decisions'; docs/decisions/0057):
// the cutoff, when a walk over a table's ids goes on, how a run's counts add up, and when the next
// run is due. The statements that apply them are in prune-statements.ts.

/** What the pruner deletes, one name per kind the Admin page shows. */
export const RETENTION_KINDS = ["deliveries", "receiverRecords", "conformanceRuns", "signInArtefacts"] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export type PrunedCounts = Record<RetentionKind, number>;

/** Rows per batch: one short transaction each (a few ms on these machines), so no writer waits long. */
export const BATCH_ROWS = 500;
/** Pause between two batches (real time): the hot paths get the database between them. */
export const PAUSE_MS = 20;
/** A run every five minutes of real time, and shortly after every move of the workbench clock. */
export const INTERVAL_MS = 5 * 60_000;
export const AFTER_CLOCK_MOVE_MS = 2_000;
/** The first run after start: once start-up's own work is done. */
export const FIRST_RUN_MS = 30_000;

const DAY_MS = 86_400_000;

/**
 * Rows finished (or no longer usable) before this instant of workbench time are pruned; null keeps
 * everything (RETENTION_DAYS=0). A day is at least 24 hours, so a pruned receiver record is always
 * older than the hour an event may be retried in (spec: Request-ID retention by receiver, 1 hour).
 */
export function retentionCutoff(nowMs: number, retentionDays: number): Date | null {
  if (!Number.isInteger(retentionDays) || retentionDays < 0) throw new RangeError("retentionDays: a whole number ≥ 0");
  return retentionDays === 0 ? null : new Date(nowMs - retentionDays * DAY_MS);
}

/**
 * A walk over a table in id order (deliveries, receiver records: ids follow production time) goes on
 * past a page while the page was full and held a row produced before the cutoff; a page of newer rows
 * only ends it, so a run reads what it prunes plus one page, never the whole table.
 */
export function walkGoesOn(page: { rows: number; older: number }, batchRows = BATCH_ROWS): boolean {
  return page.rows >= batchRows && page.older > 0;
}

/** A keyed batch (the rows themselves are selected by age) goes on while it deleted a whole batch. */
export function keyedGoesOn(pruned: number, batchRows = BATCH_ROWS): boolean {
  return pruned >= batchRows;
}

export function noneCounted(): PrunedCounts {
  return { deliveries: 0, receiverRecords: 0, conformanceRuns: 0, signInArtefacts: 0 };
}

/** Adds a run's counts to stored totals (a stored value of another shape counts as 0). */
export function addCounts(total: unknown, run: PrunedCounts): PrunedCounts {
  const sum = noneCounted();
  const stored = typeof total === "object" && total !== null ? (total as Record<string, unknown>) : {};
  for (const kind of RETENTION_KINDS) {
    const before = stored[kind];
    sum[kind] = (typeof before === "number" && Number.isFinite(before) ? before : 0) + run[kind];
  }
  return sum;
}

/** Reads stored counts for display: every kind present, anything unreadable as 0. */
export function readCounts(stored: unknown): PrunedCounts {
  return addCounts(stored, noneCounted());
}
