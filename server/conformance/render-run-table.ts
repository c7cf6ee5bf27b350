// The CLI's human output: a verdict line, a table of every check with its
// result and why, then what each failure risks in production.
import type { CheckResult } from "./check.ts";
import type { ConformanceRunView } from "./list-conformance-runs.ts";

const LABEL: Record<CheckResult["outcome"], string> = { pass: "pass", fail: "FAIL", skipped: "skip", error: "ERROR" };

export function explain(r: CheckResult): string {
  if (r.outcome === "pass") return r.note ?? "";
  if (r.outcome === "skipped") return r.why ?? "";
  return r.reason ?? "";
}

/** Tokens carry workbench time: a receiver on real time sees them as not yet valid when the clock was moved. */
export function clockNote(offsetMs: number): string {
  return `Note: the workbench clock was ${Math.round(offsetMs / 60_000)} min ahead of real time; the kit's tokens carried workbench time (reset it with \`workbench clock reset\`).`;
}

export function renderRunTable(run: ConformanceRunView, options: { width?: number } = {}): string {
  const width = Math.max(100, options.width ?? 120);
  const idWidth = Math.max(...run.results.map((r) => r.id.length), 5);
  const whyWidth = width - idWidth - 12;
  const lines = [
    `Receiver ${run.receiverUrl} (agency ${run.agencyId}${run.aboutVersion ? `, declares ${run.aboutVersion}` : ""})`,
    "",
    `${"RESULT".padEnd(7)}${"CHECK".padEnd(idWidth + 2)}WHY`,
  ];
  for (const r of run.results) {
    const label = `${LABEL[r.outcome]}${r.required || r.outcome === "pass" || r.outcome === "skipped" ? "" : "*"}`;
    const why = explain(r) || r.title;
    lines.push(
      `${label.padEnd(7)}${r.id.padEnd(idWidth + 2)}${why.length > whyWidth ? `${why.slice(0, whyWidth - 1)}…` : why}`,
    );
  }
  const failed = run.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  if (failed.length) {
    lines.push("", "Why it matters:");
    for (const r of failed)
      lines.push(`  ${r.id}${r.required ? "" : " (advisory)"}: ${r.reason ?? ""}${r.risk ? `\n    ${r.risk}` : ""}`);
  }
  if (run.results.some((r) => !r.required && r.outcome === "fail"))
    lines.push("", "* advisory: reported, does not fail the run.");
  const { passed, failed: nFailed, skipped, requiredFailed } = run.counts;
  lines.push(
    "",
    `${run.status === "passed" ? "PASSED" : run.status === "running" ? "RUNNING" : "FAILED"}: ${passed} passed, ${nFailed} failed (${requiredFailed} required), ${skipped} skipped of ${run.results.length} checks.`,
  );
  if (run.errorDetail) lines.push(run.errorDetail);
  if (run.clockOffsetMs) lines.push(clockNote(run.clockOffsetMs));
  return lines.join("\n");
}
