// The runner: checks one after another (they share the receiver and build on
// each other's state), timing each, turning a check's own crash into an
// `error` result (a kit bug, reported as such, never blamed on the receiver),
// and reporting each result as it lands so the dashboard and CLI show progress.
// The plan may depend on what earlier checks learnt (the declared contract
// version): it is asked again before each check, and must keep the prefix
// already run.
import type { Check, CheckResult } from "./check.ts";
import type { ConformanceContext } from "./context.ts";

export type RunProgress = { result: CheckResult; done: number; total: number };

export type CheckPlan = Check[] | ((ctx: ConformanceContext) => Check[]);

export async function runChecks(options: {
  checks: CheckPlan;
  ctx: ConformanceContext;
  onResult?: (progress: RunProgress) => Promise<void> | void;
}): Promise<CheckResult[]> {
  const { checks, ctx, onResult } = options;
  const planOf = typeof checks === "function" ? checks : () => checks;
  const results: CheckResult[] = [];
  for (let plan = planOf(ctx); results.length < plan.length; plan = planOf(ctx)) {
    const check = plan[results.length]!;
    const started = performance.now();
    let result: CheckResult;
    try {
      const { advisory, ...outcome } = { advisory: undefined, ...(await check.run(ctx)) };
      result = {
        id: check.id,
        group: check.group,
        title: check.title,
        required: check.required && !advisory,
        ...outcome,
        ms: Math.round(performance.now() - started),
      };
    } catch (error) {
      result = {
        id: check.id,
        group: check.group,
        title: check.title,
        required: check.required,
        outcome: "error",
        reason: `The kit itself failed on this check: ${(error as Error).message}`,
        ms: Math.round(performance.now() - started),
      };
    }
    results.push(result);
    await onResult?.({ result, done: results.length, total: planOf(ctx).length });
  }
  return results;
}
