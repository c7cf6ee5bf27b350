// PURE: a check group's line on the run report, in counts that add up. "12/12 · 11 failed" read as
// twelve passed; the line now says what passed, failed, was skipped and is still to run.
export type GroupOutcomes = { total: number; passed: number; failed: number; skipped: number; running: boolean };

export function describeGroupProgress(g: GroupOutcomes): string {
  const done = g.passed + g.failed + g.skipped;
  const parts = [`${g.passed} passed`];
  if (g.failed) parts.push(`${g.failed} failed`);
  if (g.skipped) parts.push(`${g.skipped} skipped`);
  if (done < g.total) parts.push(g.running ? `${g.total - done} to run` : `${g.total - done} not run`);
  return `${parts.join(" · ")} of ${g.total}`;
}

/** Counts one group's results ("error": the kit could not run the check, counted as failed). */
export function countOutcomes(results: Array<{ group: string; outcome: string }>, group: string) {
  const mine = results.filter((r) => r.group === group);
  return {
    passed: mine.filter((r) => r.outcome === "pass").length,
    failed: mine.filter((r) => r.outcome === "fail" || r.outcome === "error").length,
    skipped: mine.filter((r) => r.outcome === "skipped").length,
  };
}
