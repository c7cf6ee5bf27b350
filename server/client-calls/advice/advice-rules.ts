// The advice the workbench gives a partner's client: one row per rule of the spec a client can be
// seen breaking in its calls, with the rule it names, how bad it is and the fix (docs/api-calls.md).
// The detectors (detect-*.ts) say when and what was seen; the wording of each rule lives here only.

export const ADVICE_RULES = {
  "token-per-call": {
    severity: "error",
    title: "A new token while the last one had most of its life left",
    spec: "Authentication, Access tokens, rule 2",
    fix: "Cache the access token until shortly before expires_in and reuse it; request a new one per agency (and user) context, not per call.",
  },
  "token-expired": {
    severity: "error",
    title: "A call with an expired access token",
    spec: "Authentication, Access tokens, rule 2",
    fix: "Request a new token shortly before expires_in runs out, not after a 401.",
  },
  "agency-context": {
    severity: "error",
    title: "A call for an agency the token does not carry",
    spec: "Authentication, Access tokens, rules 2 and 3",
    fix: "Request a separate token per agency context (agency_context), and use each agency's token for its incidents.",
  },
  "psap-id": {
    severity: "warning",
    title: "psap_id used (deprecated)",
    spec: "Authentication, Access tokens, rule 3",
    fix: "Send agency_context instead of psap_id: psap_id is a deprecated alias, and sending both is refused.",
  },
  "browser-credentials": {
    severity: "error",
    title: "Client credentials sent from a browser",
    spec: "Passwordless sign-in sequence, rule 3",
    fix: "Call /connect/token from your backend only: client credentials never appear in browser or mobile code. A browser gets a session through GetUserSigninToken and LoginUserByToken.",
  },
  "signin-token-encoded-twice": {
    severity: "error",
    title: "A sign-in token encoded a second time",
    spec: "LoginUserByToken, rule 6",
    fix: "Put the token into the LoginUserByToken URL exactly as GetUserSigninToken returned it: it is URL-encoded already.",
  },
  "create-not-repeatable": {
    severity: "warning",
    title: "An incident created without requestedIncidentId",
    spec: "Incident creation, requestedIncidentId; Repeat handling, rule 3",
    fix: "Generate a UUID per incident on your side and send it as requestedIncidentId: only then is a retried create answered 200 with the same incident instead of a second incident.",
  },
  "duplicate-incidents": {
    severity: "error",
    title: "Likely duplicate incidents",
    spec: "Incident creation, requestedIncidentId",
    fix: "Send requestedIncidentId, so a create repeated after a lost answer finds its incident instead of making another.",
  },
  "refused-resent-unchanged": {
    severity: "error",
    title: "A refused request sent again unchanged",
    spec: "States and transitions, rule 1; Errors",
    fix: "A 4xx answer says what is wrong with the request: read its code and errors, change the request (or stop), and do not retry it as it was.",
  },
  "retry-before-retry-after": {
    severity: "error",
    title: "A retry sooner than Retry-After",
    spec: "Errors (503, 429: Retry-After)",
    fix: "Wait at least the Retry-After seconds of a 503 or 429 before the next call.",
  },
  "retry-without-backoff": {
    severity: "warning",
    title: "Retries after a server error without backoff",
    spec: "Errors (5xx)",
    fix: "Retry a 5xx with a growing delay (e.g. 1 s doubling, with jitter) and a limit, not at a fixed pace.",
  },
  "call-end-repeated": {
    severity: "warning",
    title: "A call's end sent again (not repeatable)",
    spec: "Inbound API: POST /v1/calls/{callId}/end is not repeatable",
    fix: "Treat 409 CallAlreadyEnded as done: the call has its end time, and sending the end again changes nothing.",
  },
  "conflict-recovery": {
    severity: "error",
    title: "A 409 not recovered as the spec says",
    spec: "Repeat handling, rule 4",
    fix: "After 409 CallAlreadyExists, repeat the creation without endedAtUtc to get the call ID, then end the call; after 409 IncidentAlreadyExists, continue on /v1/incidents/{incidentId} instead of creating again.",
  },
} as const satisfies Record<string, { severity: "error" | "warning"; title: string; spec: string; fix: string }>;

export type AdviceRule = keyof typeof ADVICE_RULES;
export const ADVICE_RULE_IDS = Object.keys(ADVICE_RULES) as AdviceRule[];

/** One piece of advice about one call: the rule, what was seen there, and the rule's fix. */
export type Advice = {
  rule: AdviceRule;
  severity: "error" | "warning";
  title: string;
  spec: string;
  fix: string;
  /** The call it is about (ClientCall id, as text). */
  callId: string;
  clientId: string | null;
  /** What was seen, in words, with the figures (times, counts, seconds). */
  seen: string;
};

export function adviceOf(rule: AdviceRule, call: { id: string; clientId: string | null }, seen: string): Advice {
  const { severity, title, spec, fix } = ADVICE_RULES[rule];
  return { rule, severity, title, spec, fix, callId: call.id, clientId: call.clientId, seen };
}
