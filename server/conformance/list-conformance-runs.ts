// Reading runs back for the dashboard, the CLI and the HTML export.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { AppError } from "../platform/errors.ts";
import { CHECK_GROUPS, type CheckGroup, type CheckResult } from "./check.ts";
import { checksForVersion } from "./conformance-checks.ts";

export type ConformanceRunView = {
  id: string;
  receiverUrl: string;
  agencyId: string;
  status: "running" | "passed" | "failed" | "error";
  aboutVersion: string | null;
  clockOffsetMs: number;
  errorDetail: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  results: CheckResult[];
  /** While running: the checks still to come, in run order (the plan of the declared contract, v3 until /about is read). */
  pending: Array<{ id: string; group: CheckGroup; title: string; required: boolean }>;
  /** Per group: checks planned, finished, failed (required and advisory). */
  groups: Array<{ group: CheckGroup; total: number; done: number; failed: number }>;
  counts: { total: number; passed: number; failed: number; skipped: number; requiredFailed: number };
};

/**
 * A run still "running" after this long died with its process (a restart mid-run):
 * ~45 requests at the 10 s request timeout is the longest a live run can take.
 * Only the view says so; the row is left alone, so a live run is never overwritten.
 */
export const STALE_RUN_MS = 15 * 60_000;

type Row = Awaited<ReturnType<DbClient["conformanceRun"]["findFirstOrThrow"]>>;

export function toRunView(row: Row, nowMs: number): ConformanceRunView {
  const stale = row.status === "running" && nowMs - row.startedAt.getTime() > STALE_RUN_MS;
  const results = row.results as CheckResult[];
  const plan = checksForVersion(row.aboutVersion);
  const done = new Set(results.map((r) => r.id));
  const pending =
    row.status === "running" && !stale
      ? plan.filter((c) => !done.has(c.id)).map(({ id, group, title, required }) => ({ id, group, title, required }))
      : [];
  const groups = CHECK_GROUPS.map((group) => ({
    group,
    total: plan.filter((c) => c.group === group).length,
    done: results.filter((r) => r.group === group).length,
    failed: results.filter((r) => r.group === group && (r.outcome === "fail" || r.outcome === "error")).length,
  }));
  const bad = (r: CheckResult) => r.outcome === "fail" || r.outcome === "error";
  return {
    id: row.id,
    receiverUrl: row.receiverUrl,
    agencyId: row.agencyId,
    status: stale ? "error" : (row.status as ConformanceRunView["status"]),
    aboutVersion: row.aboutVersion,
    clockOffsetMs: Number(row.clockOffsetMs),
    errorDetail: stale ? "The run was interrupted (the workbench stopped before it finished)." : row.errorDetail,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    results,
    pending,
    groups,
    counts: {
      total: plan.length,
      passed: results.filter((r) => r.outcome === "pass").length,
      failed: results.filter(bad).length,
      skipped: results.filter((r) => r.outcome === "skipped").length,
      requiredFailed: results.filter((r) => r.required && bad(r)).length,
    },
  };
}

export async function getConformanceRun(options: {
  db: DbClient;
  clock: Clock;
  id: string;
}): Promise<ConformanceRunView> {
  const row = await options.db.conformanceRun.findUnique({ where: { id: options.id } });
  if (!row) throw new AppError("ConformanceRunNotFound", `No conformance run ${options.id}.`);
  return toRunView(row, options.clock.nowMs());
}

/** Newest first. */
export async function listConformanceRuns(options: { db: DbClient; clock: Clock; limit?: number }) {
  const rows = await options.db.conformanceRun.findMany({ orderBy: { startedAt: "desc" }, take: options.limit ?? 20 });
  return rows.map((row) => {
    const { results: _results, pending: _pending, ...view } = toRunView(row, options.clock.nowMs());
    return view;
  });
}
