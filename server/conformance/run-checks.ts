// The runner: checks one after another (they share the receiver and build on
// each other's state), timing each, turning a check's own crash into an
// `error` result (a kit bug, reported as such, never blamed on the receiver),
// and reporting each result as it lands so the dashboard and CLI show progress.
import type { Check, CheckResult } from "./check.ts";
import type { ConformanceContext } from "./context.ts";

export type RunProgress = { result: CheckResult; done: number; total: number };

export async function runChecks(options: { checks: Check[]; ctx: ConformanceContext; onResult?: (progress: RunProgress) => Promise<void> | void }): Promise<CheckResult[]> {
  const { checks, ctx, onResult } = options;
  const results: CheckResult[] = [];
  for (const check of checks) {
    const started = performance.now();
    let result: CheckResult;
    try {
      const outcome = await check.run(ctx);
      result = { id: check.id, group: check.group, title: check.title, required: check.required, ...outcome, ms: Math.round(performance.now() - started) };
    } catch (error) {
      result = {
        id: check.id, group: check.group, title: check.title, required: check.required, outcome: "error",
        reason: `The kit itself failed on this check: ${(error as Error).message}`, ms: Math.round(performance.now() - started),
      };
    }
    results.push(result);
    await onResult?.({ result, done: results.length, total: checks.length });
  }
  return results;
}
