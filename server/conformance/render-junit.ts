// JUnit XML for CI (`workbench conformance --junit FILE`): one testsuite per
// check group, one testcase per check. A failed advisory check is a <failure
// type="advisory">, so CI shows it, while the exit code follows required checks only.
import { CHECK_GROUPS, GROUP_TITLES } from "./check.ts";
import type { ConformanceRunView } from "./list-conformance-runs.ts";

const xml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

export function renderJunit(run: ConformanceRunView): string {
  const suites = CHECK_GROUPS.map((group) => {
    const results = run.results.filter((r) => r.group === group);
    const failures = results.filter((r) => r.outcome === "fail").length;
    const errors = results.filter((r) => r.outcome === "error").length;
    const skippedCount = results.filter((r) => r.outcome === "skipped").length;
    const seconds = results.reduce((s, r) => s + r.ms, 0) / 1000;
    const cases = results.map((r) => {
      const open = `    <testcase classname="conformance.${group}" name="${xml(`${r.id}: ${r.title}`)}" time="${(r.ms / 1000).toFixed(3)}"`;
      if (r.outcome === "pass") return `${open}/>`;
      if (r.outcome === "skipped") return `${open}>\n      <skipped message="${xml(r.why ?? "")}"/>\n    </testcase>`;
      const tag = r.outcome === "error" ? "error" : "failure";
      const type = r.required ? "required" : "advisory";
      return `${open}>\n      <${tag} type="${type}" message="${xml(r.reason ?? "")}">${xml(r.risk ?? r.reason ?? "")}</${tag}>\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(GROUP_TITLES[group])}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skippedCount}" time="${seconds.toFixed(3)}" timestamp="${run.startedAt.toISOString()}">`,
      ...cases,
      "  </testsuite>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`Receiver conformance: ${run.receiverUrl}`)}" tests="${run.results.length}" failures="${run.counts.failed}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
