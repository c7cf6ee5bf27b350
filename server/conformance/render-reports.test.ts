import { describe, expect, it } from "vitest";
import type { CheckResult } from "./check.ts";
import type { ConformanceRunView } from "./list-conformance-runs.ts";
import { renderJunit } from "./render-junit.ts";
import { renderReportHtml } from "./render-report-html.ts";
import { renderRunTable } from "./render-run-table.ts";

const results: CheckResult[] = [
  {
    id: "about.reachable",
    group: "discovery",
    title: "GET /about answers 200",
    required: true,
    outcome: "pass",
    note: "answered the Publisher credential",
    ms: 12,
  },
  {
    id: "token.alg-none",
    group: "tokens",
    title: "Refuses a token: alg none (unsigned)",
    required: true,
    outcome: "fail",
    reason: "Accepted (200) a token <script>alert(1)</script>.",
    risk: "Unsigned tokens are accepted: anyone can write one.",
    ms: 3,
  },
  {
    id: "delivery.closed",
    group: "delivery",
    title: "Survives the closed event",
    required: true,
    outcome: "skipped",
    why: "The receiver does not declare closed, so the service never sends this.",
    ms: 0,
  },
  {
    id: "delivery.latency-p95",
    group: "delivery",
    title: "Answers quickly",
    required: false,
    outcome: "fail",
    reason: "p95 1203 ms over 20 deliveries (max 1250 ms).",
    risk: "Record, answer, then process.",
    ms: 0,
  },
];

const run: ConformanceRunView = {
  id: "6f1c1d6e-8d7b-4a55-9a3e-3c1f6a0b9e01",
  receiverUrl: 'https://cad.example.com/hooks?x="&',
  agencyId: "0b0c5b52-1c0e-4a57-9a57-000000000001",
  status: "failed",
  aboutVersion: "3.0",
  clockOffsetMs: 0,
  errorDetail: null,
  startedAt: new Date(Date.UTC(2026, 10, 22, 6)),
  finishedAt: new Date(Date.UTC(2026, 10, 22, 6, 0, 2)),
  results,
  pending: [],
  groups: [
    { group: "discovery", total: 7, done: 1, failed: 0 },
    { group: "tokens", total: 16, done: 1, failed: 1 },
    { group: "delivery", total: 11, done: 2, failed: 1 },
  ],
  counts: { total: 34, passed: 1, failed: 2, skipped: 1, requiredFailed: 1 },
};

describe("reports", () => {
  it("HTML: self-contained, escaped, verdict and risks shown", () => {
    const page = renderReportHtml(run);
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|<link|src=/i);
    expect(page).toContain("Accepted (200) a token &lt;script&gt;alert(1)&lt;/script&gt;.");
    expect(page).toContain("https://cad.example.com/hooks?x=&quot;&amp;");
    expect(page).toContain("Failed: 1 passed, 2 failed (1 required), 1 skipped");
    expect(page).toContain("Unsigned tokens are accepted");
    expect(page).toContain("advisory");
    // Failures first, in a "What to fix" list, before the per-group tables.
    expect(page.indexOf("What to fix")).toBeLessThan(page.indexOf("<h2>Discovery"));
    expect(page.match(/<li>/g)).toHaveLength(2);
    expect(page).toContain("· v3 webhook contract</p>");
    expect(renderReportHtml({ ...run, aboutVersion: "2.0" })).toContain("· legacy v2 webhook contract (v2 checks)</p>");
  });

  it("JUnit: a suite per group; failures typed required or advisory; skipped with the reason", () => {
    const xml = renderJunit(run);
    expect(xml).toContain('<testsuite name="Token validation" tests="1" failures="1" errors="0" skipped="0"');
    expect(xml).toContain(
      '<failure type="required" message="Accepted (200) a token &lt;script&gt;alert(1)&lt;/script&gt;.">Unsigned tokens are accepted: anyone can write one.</failure>',
    );
    expect(xml).toContain('<failure type="advisory"');
    expect(xml).toContain(
      '<skipped message="The receiver does not declare closed, so the service never sends this."/>',
    );
    expect(xml).toContain(
      '<testcase classname="conformance.discovery" name="about.reachable: GET /about answers 200" time="0.012"/>',
    );
  });

  it("table: one row per check with why; failures explained below; the verdict last", () => {
    const text = renderRunTable(run, { width: 120 });
    const lines = text.split("\n");
    expect(lines).toContain("pass   about.reachable       answered the Publisher credential");
    expect(lines.some((l) => l.startsWith("FAIL   token.alg-none        Accepted (200)"))).toBe(true);
    expect(lines.some((l) => l.startsWith("FAIL*  delivery.latency-p95"))).toBe(true);
    expect(text).toContain("Why it matters:\n  token.alg-none: Accepted (200)");
    expect(lines.at(-1)).toBe("FAILED: 1 passed, 2 failed (1 required), 1 skipped of 4 checks.");
  });
});
