// A client's verdict for people and for CI (`workbench client-report CLIENT`, docs/api-calls.md):
// the text a terminal shows, and JUnit XML with one testcase per rule. A broken error rule is a
// <failure type="error">, a warning a <failure type="warning"> that CI shows; the exit code follows
// errors only, as the conformance kit's follows required checks.
import { ADVICE_RULE_IDS, ADVICE_RULES } from "./advice/advice-rules.ts";
import type { ClientReport } from "./list-calls.ts";

const xml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

export function renderClientReportText(report: ClientReport): string {
  const head = `${report.clientId}: ${report.calls} call${report.calls === 1 ? "" : "s"} since ${report.since}`;
  if (report.calls === 0) return `${head}\nno calls recorded: nothing to judge (did the client call this workbench?)`;
  if (report.verdict === "clean") return `${head}\nclean: no advice (${ADVICE_RULE_IDS.length} rules checked)`;
  const lines = [
    head,
    `${report.errors} error${report.errors === 1 ? "" : "s"}, ${report.warnings} warning${report.warnings === 1 ? "" : "s"}`,
  ];
  for (const rule of report.rules) {
    lines.push("");
    lines.push(`${rule.severity === "error" ? "ERROR" : "warning"}  ${rule.title}  (${rule.count}×, ${rule.spec})`);
    lines.push(`  seen: ${rule.example}`);
    lines.push(`  fix:  ${rule.fix}`);
    lines.push(`  calls: ${rule.firstCallId}${rule.lastCallId !== rule.firstCallId ? ` … ${rule.lastCallId}` : ""}`);
  }
  return lines.join("\n");
}

export function renderClientReportJunit(report: ClientReport): string {
  const broken = new Map(report.rules.map((r) => [r.rule, r]));
  const cases = ADVICE_RULE_IDS.map((id) => {
    const open = `    <testcase classname="client-report.${xml(report.clientId)}" name="${xml(`${id}: ${ADVICE_RULES[id].title}`)}"`;
    const rule = broken.get(id);
    if (!rule) return `${open}/>`;
    const message = `${rule.count}× — ${rule.example}`;
    return `${open}>\n      <failure type="${rule.severity}" message="${xml(message)}">${xml(`${rule.spec}. Fix: ${rule.fix}`)}</failure>\n    </testcase>`;
  });
  const failures = report.rules.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`Partner client: ${report.clientId}`)}" tests="${ADVICE_RULE_IDS.length}" failures="${failures}">`,
    `  <testsuite name="${xml(`API calls of ${report.clientId} since ${report.since}`)}" tests="${ADVICE_RULE_IDS.length}" failures="${failures}" errors="0" skipped="0" timestamp="${report.since}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
