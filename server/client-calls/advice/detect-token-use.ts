// Detectors of how a client gets and uses its tokens (advice-rules.ts): a new token while the last
// had most of its life left, an expired token used, a call for an agency the token does not carry,
// psap_id, credentials sent from a browser, a sign-in token encoded twice. PURE.
import { adviceOf, type Advice } from "./advice-rules.ts";
import { clock, type AdviceContext, type CallForAdvice } from "./call-for-advice.ts";

/** A new token is early when the last one of the same context had more than this share of its life left. */
const EARLY_SHARE = 0.5;

export function detectTokenPerCall(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  const lastByContext = new Map<string, CallForAdvice>();
  for (const call of calls) {
    const token = call.token;
    if (call.surface !== "token" || call.status !== 200 || !token?.issued || !token.expiresAt || !token.issuedAt)
      continue;
    const context = `${token.agencyContext ?? ""}|${token.username ?? ""}|${[...token.scopes].sort().join(" ")}`;
    const last = lastByContext.get(context);
    lastByContext.set(context, call);
    if (!last?.token?.expiresAt || !last.token.issuedAt) continue;
    const lifeS = (Date.parse(last.token.expiresAt) - Date.parse(last.token.issuedAt)) / 1000;
    const leftS = Math.round((Date.parse(last.token.expiresAt) - call.receivedAt.getTime()) / 1000);
    if (lifeS <= 0 || leftS <= lifeS * EARLY_SHARE) continue;
    found.push(
      adviceOf(
        "token-per-call",
        call,
        `A new token at ${clock(call.receivedAt)} while the one issued at ${clock(last.receivedAt)} for the same context had ${leftS} of ${Math.round(lifeS)} s left.`,
      ),
    );
  }
  return found;
}

export function detectExpiredToken(calls: readonly CallForAdvice[]): Advice[] {
  return calls
    .filter((c) => c.surface !== "token" && c.token && c.token.expiresInS !== null && c.token.expiresInS <= 0)
    .map((c) =>
      adviceOf(
        "token-expired",
        c,
        `The token had expired ${-c.token!.expiresInS!} s before this call (answered ${c.status}).`,
      ),
    );
}

export function detectAgencyContext(calls: readonly CallForAdvice[], context: AdviceContext): Advice[] {
  const found: Advice[] = [];
  for (const call of calls) {
    if (call.surface !== "v1") continue;
    if (call.problemCode === "AgencyContextRequired") {
      found.push(
        adviceOf("agency-context", call, "Answered 403 AgencyContextRequired: the token carries no agency_context."),
      );
      continue;
    }
    if (call.problemCode !== "IncidentNotFound" || !call.incidentId || !call.token?.agencyContext) continue;
    const involved = context.incidentAgencies?.get(call.incidentId) ?? [];
    const mine = context.clientAgencies?.get(call.clientId ?? "") ?? [];
    const other = involved.find((a) => a !== call.token!.agencyContext && mine.includes(a));
    if (other)
      found.push(
        adviceOf(
          "agency-context",
          call,
          `Answered 404 IncidentNotFound: the incident is agency ${other}'s, one of this client's agencies, but the token carries agency ${call.token.agencyContext}.`,
        ),
      );
  }
  return found;
}

export function detectPsapId(calls: readonly CallForAdvice[]): Advice[] {
  return calls
    .filter((c) => c.surface === "token" && c.request.formFields.includes("psap_id"))
    .map((c) => adviceOf("psap-id", c, `The token request sent psap_id (answered ${c.status}).`));
}

export function detectBrowserCredentials(calls: readonly CallForAdvice[]): Advice[] {
  const found: Advice[] = [];
  for (const call of calls) {
    if (call.surface !== "token" || call.console) continue;
    if (call.method === "OPTIONS")
      found.push(
        adviceOf(
          "browser-credentials",
          call,
          "A CORS preflight (OPTIONS) reached /connect/token: a browser was about to send a token request.",
        ),
      );
    else if (call.request.headers.origin)
      found.push(
        adviceOf(
          "browser-credentials",
          call,
          `The token request came from a browser page (Origin ${call.request.headers.origin}).`,
        ),
      );
  }
  return found;
}

export function detectSigninTokenEncodedTwice(calls: readonly CallForAdvice[]): Advice[] {
  return calls
    .filter((c) => c.request.signIn?.encodedTwice)
    .map((c) =>
      adviceOf(
        "signin-token-encoded-twice",
        c,
        "The LoginUserByToken query held %25 in the token: it was URL-encoded again, so it matched no token and created no session.",
      ),
    );
}
