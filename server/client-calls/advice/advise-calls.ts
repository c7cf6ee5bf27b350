// The verdict on a partner's client, from the spec's own rules (docs/api-calls.md): every detector
// over each client's calls in time order, PURE. A call without a client (an unknown sign-in token)
// is checked by the rules that need none.
import { ADVICE_RULES, ADVICE_RULE_IDS, type Advice, type AdviceRule } from "./advice-rules.ts";
import type { AdviceContext, CallForAdvice } from "./call-for-advice.ts";
import {
  detectAgencyContext,
  detectBrowserCredentials,
  detectExpiredToken,
  detectPsapId,
  detectSigninTokenEncodedTwice,
  detectTokenPerCall,
} from "./detect-token-use.ts";
import {
  detectCallEndRepeated,
  detectConflictRecovery,
  detectCreates,
  detectRefusedResent,
  detectRetryAfter,
  detectRetryWithoutBackoff,
} from "./detect-requests.ts";

const DETECTORS: Array<(calls: readonly CallForAdvice[], context: AdviceContext) => Advice[]> = [
  detectTokenPerCall,
  detectExpiredToken,
  detectAgencyContext,
  detectPsapId,
  detectBrowserCredentials,
  detectSigninTokenEncodedTwice,
  detectCreates,
  detectRefusedResent,
  detectRetryAfter,
  detectRetryWithoutBackoff,
  detectCallEndRepeated,
  detectConflictRecovery,
];

/** Every piece of advice about `calls` (any clients, any order), in call order. */
export function adviseCalls(calls: readonly CallForAdvice[], context: AdviceContext = {}): Advice[] {
  const byClient = new Map<string, CallForAdvice[]>();
  for (const call of [...calls].sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))) {
    const key = call.clientId ?? "";
    (byClient.get(key) ?? byClient.set(key, []).get(key)!).push(call);
  }
  const found = [...byClient.values()].flatMap((own) => DETECTORS.flatMap((detect) => detect(own, context)));
  return found.sort((a, b) => Number(BigInt(a.callId) - BigInt(b.callId)));
}

export type RuleTally = {
  rule: AdviceRule;
  severity: "error" | "warning";
  title: string;
  spec: string;
  fix: string;
  count: number;
  firstCallId: string;
  lastCallId: string;
  example: string;
};

export type ClientVerdict = {
  clientId: string;
  calls: number;
  errors: number;
  warnings: number;
  /** "clean": no advice; "warnings": only warnings; "errors": at least one error. */
  verdict: "clean" | "warnings" | "errors";
  rules: RuleTally[];
};

/** One client's verdict: each rule it broke, how often, an example of what was seen. */
export function verdictOf(clientId: string, calls: number, advice: readonly Advice[]): ClientVerdict {
  const tallies = new Map<AdviceRule, RuleTally>();
  for (const a of advice) {
    const tally = tallies.get(a.rule);
    if (tally) {
      tally.count++;
      tally.lastCallId = a.callId;
    } else {
      const { severity, title, spec, fix } = ADVICE_RULES[a.rule];
      tallies.set(a.rule, {
        rule: a.rule,
        severity,
        title,
        spec,
        fix,
        count: 1,
        firstCallId: a.callId,
        lastCallId: a.callId,
        example: a.seen,
      });
    }
  }
  const rules = ADVICE_RULE_IDS.map((id) => tallies.get(id)).filter((t): t is RuleTally => t !== undefined);
  const errors = rules.filter((r) => r.severity === "error").reduce((n, r) => n + r.count, 0);
  const warnings = rules.filter((r) => r.severity === "warning").reduce((n, r) => n + r.count, 0);
  return {
    clientId,
    calls,
    errors,
    warnings,
    verdict: errors > 0 ? "errors" : warnings > 0 ? "warnings" : "clean",
    rules,
  };
}
