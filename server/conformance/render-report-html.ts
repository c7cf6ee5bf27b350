// A shareable, self-contained HTML report of one run: inline CSS, no scripts,
// no external assets, every value escaped. Integrators attach it to a ticket or
// send it to the service's onboarding team.
import { CHECK_GROUPS, GROUP_TITLES, type CheckResult } from "./check.ts";
import type { ConformanceRunView } from "./list-conformance-runs.ts";
import { clockNote, explain } from "./render-run-table.ts";
import { legacyMajorOf } from "./about.schema.ts";

const html = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[c]!);

const BADGE: Record<CheckResult["outcome"], [string, string]> = {
  pass: ["Pass", "pass"],
  fail: ["Fail", "fail"],
  skipped: ["Skipped", "skip"],
  error: ["Kit error", "fail"],
};

const STYLE = `
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;margin:2rem auto;max-width:72rem;padding:0 1rem}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:2rem 0 .5rem}
.meta{color:#475569;margin:0}.verdict{display:inline-block;font-weight:600;padding:.25rem .75rem;border-radius:.375rem;margin:1rem 0}
.verdict.passed{background:#dcfce7;color:#14532d}.verdict.failed,.verdict.error{background:#fee2e2;color:#7f1d1d}.verdict.running{background:#e0f2fe;color:#0c4a6e}
table{border-collapse:collapse;width:100%;table-layout:fixed}col.result{width:7.5rem}col.check{width:38%}col.time{width:5.5rem}
.fix{border:1px solid #fecaca;background:#fef2f2;border-radius:.5rem;padding:.75rem 1rem}.fix li{margin:.5rem 0}th,td{text-align:left;vertical-align:top;padding:.4rem .5rem;border-bottom:1px solid #e2e8f0}
th{font-size:.75rem;text-transform:uppercase;color:#475569}code{font:12px ui-monospace,monospace}
.badge{font-size:.75rem;font-weight:600;padding:.1rem .45rem;border-radius:.25rem;white-space:nowrap}
.pass{background:#dcfce7;color:#14532d}.fail{background:#fee2e2;color:#7f1d1d}.skip{background:#f1f5f9;color:#334155}
.risk{color:#7f1d1d;margin:.25rem 0 0}.advisory{color:#92400e;font-size:.75rem}
`;

/** Which contract's checks ran: the plan follows the declared version (checksForVersion). */
const contractOf = (version: string | null) => {
  const major = version ? legacyMajorOf(version) : undefined;
  return major ? `legacy v${major} webhook contract (v2 checks)` : "v3 webhook contract";
};

export function renderReportHtml(run: ConformanceRunView): string {
  const verdict =
    run.status === "passed"
      ? "Passed"
      : run.status === "running"
        ? "Running"
        : run.status === "error"
          ? "Stopped on an error"
          : "Failed";
  const sections = CHECK_GROUPS.map((group) => {
    const rows = run.results
      .filter((r) => r.group === group)
      .map((r) => {
        const [label, cls] = BADGE[r.outcome];
        const risk = r.risk ? `<p class="risk">${html(r.risk)}</p>` : "";
        return `<tr><td><span class="badge ${cls}">${label}</span>${r.required ? "" : ' <span class="advisory">advisory</span>'}</td><td>${html(r.title)}<br><code>${html(r.id)}</code></td><td>${html(explain(r))}${risk}</td><td>${r.ms} ms</td></tr>`;
      });
    if (!rows.length) return "";
    return `<h2>${html(GROUP_TITLES[group])}</h2><table><colgroup><col class="result"><col class="check"><col><col class="time"></colgroup><thead><tr><th>Result</th><th>Check</th><th>Why</th><th>Time</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  });
  const { passed, failed, skipped, requiredFailed } = run.counts;
  const failures = run.results.filter((r) => r.outcome === "fail" || r.outcome === "error");
  const toFix = failures.length
    ? `<h2>What to fix</h2><ol class="fix">${failures.map((r) => `<li><strong>${html(r.title)}</strong>${r.required ? "" : ' <span class="advisory">advisory</span>'}<br>${html(r.reason ?? "")}${r.risk ? `<p class="risk">${html(r.risk)}</p>` : ""}</li>`).join("")}</ol>`
    : "";
  const offset = run.clockOffsetMs ? `<p class="meta">${html(clockNote(run.clockOffsetMs))}</p>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Receiver conformance: ${html(run.receiverUrl)}</title><style>${STYLE}</style></head>
<body><main>
<h1>Receiver conformance report</h1>
<p class="meta">Receiver <code>${html(run.receiverUrl)}</code> · agency <code>${html(run.agencyId)}</code>${run.aboutVersion ? ` · declares version ${html(run.aboutVersion)}` : ""}</p>
<p class="meta">Run <code>${html(run.id)}</code> · started ${html(run.startedAt.toISOString())}${run.finishedAt ? ` · finished ${html(run.finishedAt.toISOString())}` : ""} · ${contractOf(run.aboutVersion)}</p>
${offset}
<p class="verdict ${html(run.status)}">${verdict}: ${passed} passed, ${failed} failed (${requiredFailed} required), ${skipped} skipped</p>
${run.errorDetail ? `<p class="risk">${html(run.errorDetail)}</p>` : ""}
${toFix}
${sections.join("\n")}
</main></body></html>
`;
}
