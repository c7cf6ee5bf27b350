// A conformance check is data: an id, its group, a title, whether it gates the
// verdict (required), and run(ctx) returning one outcome. Checks never throw for
// a receiver's misbehaviour: a wrong answer is a `fail` with the reason and the
// risk it carries in production; `skipped` says why the check did not apply.
import type { ConformanceContext } from "./context.ts";

export const CHECK_GROUPS = ["discovery", "tokens", "delivery"] as const;
export type CheckGroup = (typeof CHECK_GROUPS)[number];

export const GROUP_TITLES: Record<CheckGroup, string> = {
  discovery: "Discovery (/about, /health)",
  tokens: "Token validation",
  delivery: "Delivery semantics",
};

export type CheckOutcome =
  | { outcome: "pass"; note?: string }
  /** `advisory`: this failure is a warning here, whatever the check's `required` (see `warn`). */
  | { outcome: "fail"; reason: string; risk: string; advisory?: true }
  | { outcome: "skipped"; why: string };

export type Check = {
  id: string;
  group: CheckGroup;
  title: string;
  /** Required checks decide the verdict (CLI exit code); the others are advice. */
  required: boolean;
  run: (ctx: ConformanceContext) => Promise<CheckOutcome>;
};

export type CheckResult = {
  id: string;
  group: CheckGroup;
  title: string;
  required: boolean;
  /** "error" when the check itself broke (a kit bug, never the receiver's fault). */
  outcome: "pass" | "fail" | "skipped" | "error";
  reason?: string;
  risk?: string;
  note?: string;
  why?: string;
  ms: number;
};

export const pass = (note?: string): CheckOutcome => (note ? { outcome: "pass", note } : { outcome: "pass" });
export const fail = (reason: string, risk: string): CheckOutcome => ({ outcome: "fail", reason, risk });
export const skipped = (why: string): CheckOutcome => ({ outcome: "skipped", why });
/**
 * A failure that does not decide the verdict in this case: the result is reported as advice (a
 * non-required failure), with the reason saying why it is only a warning.
 */
export const warn = (reason: string, risk: string): CheckOutcome => ({ outcome: "fail", reason, risk, advisory: true });

/** The verdict: passed only when every required check passed (a skipped required check does not count against it). */
export function verdictOf(results: Pick<CheckResult, "required" | "outcome">[]): "passed" | "failed" {
  return results.some((r) => r.required && (r.outcome === "fail" || r.outcome === "error")) ? "failed" : "passed";
}
