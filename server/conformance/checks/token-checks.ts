// Token validation (platform-interface.md, "Webhook receiver token validation"):
// iss {auth_url}, keys from the JWKS (never pinned), typ at+jwt, aud
// urn:service:webhooks:{agency}, sub and client_id Publisher, scope
// webhooks.receive, unexpired. One forgery per rule; each refused is a pass,
// each accepted a failure naming what an attacker could then do.
import { fail, pass, skipped, type Check, type CheckOutcome } from "../check.ts";
import type { ConformanceContext } from "../context.ts";
import { describeAnswer, type ReceiverResponse } from "../receiver-http.ts";
import { OUT_OF_WINDOW_S, type TokenForge } from "../forge-tokens.ts";
import { requireV3About } from "./discovery-checks.ts";
import { probeEvent } from "./probe-event.ts";
import { deliver } from "./deliver-events.ts";

const FORGED_INCIDENTS =
  "Anyone able to reach the receiver could then inject incidents and changes that dispatchers would treat as coming from the service.";

export type Forgery = {
  id: string;
  title: string;
  forge: (t: TokenForge, ctx: ConformanceContext) => Promise<string | null> | string | null;
  risk: string;
};

const FORGERIES: Forgery[] = [
  {
    id: "token.missing",
    title: "no Authorization header",
    forge: () => null,
    risk: `The receiver does not authenticate deliveries at all. ${FORGED_INCIDENTS}`,
  },
  {
    id: "token.aud-other-agency",
    title: "aud of another agency (urn:service:webhooks:{other})",
    forge: (t, ctx) => t.sign({ claims: { aud: t.otherAgencyAudience(ctx.otherAgencyId) } }),
    risk: "A token the service minted for another agency's integration is accepted: that agency's events (or a replay of them) land in this agency's system.",
  },
  {
    id: "token.aud-v2",
    title: "v2 audience (urn:service:agency:{agency})",
    forge: (t) => t.sign({ claims: { aud: t.legacyAudience() } }),
    risk: "Tokens meant for the legacy contract are accepted: the receiver does not check aud against urn:service:webhooks:{agency}.",
  },
  {
    id: "token.iss-other",
    title: "another issuer",
    forge: (t) => t.sign({ claims: { iss: "https://identity.example.invalid" } }),
    risk: "The receiver does not check iss: it trusts tokens regardless of which identity server claims to have issued them.",
  },
  {
    id: "token.iss-trailing-slash",
    title: "issuer with a trailing slash",
    forge: (t, ctx) => t.sign({ claims: { iss: `${ctx.tokens.issuer()}/` } }),
    risk: "iss must equal {auth_url} exactly; a receiver that normalizes it compares loosely and may accept look-alike issuers.",
  },
  {
    id: "token.typ-jwt",
    title: "typ JWT instead of at+jwt",
    forge: (t) => t.sign({ header: { typ: "JWT" } }),
    risk: "Without the typ check, an ID token or another JWT signed by the same identity server passes as an access token (RFC 9068 §4).",
  },
  {
    id: "token.expired",
    title: `expired (exp ${OUT_OF_WINDOW_S / 60} min ago)`,
    forge: (t) => {
      const now = t.nowS();
      return t.sign({
        claims: { iat: now - 3600 - OUT_OF_WINDOW_S, nbf: now - 3600 - OUT_OF_WINDOW_S, exp: now - OUT_OF_WINDOW_S },
      });
    },
    risk: "Expired tokens are accepted: a token captured once (a log, a proxy) works forever.",
  },
  {
    id: "token.not-yet-valid",
    title: `not yet valid (nbf in ${OUT_OF_WINDOW_S / 60} min)`,
    forge: (t) => {
      const later = t.nowS() + OUT_OF_WINDOW_S;
      return t.sign({ claims: { iat: later, nbf: later, exp: later + 3600 } });
    },
    risk: "The receiver ignores nbf: tokens are honoured outside their validity window.",
  },
  {
    id: "token.alg-none",
    title: "alg none (unsigned)",
    forge: (t) => t.unsigned(),
    risk: `Unsigned tokens are accepted: anyone can write one. ${FORGED_INCIDENTS}`,
  },
  {
    id: "token.hs256-public-key",
    title: "HS256 signed with the published public key",
    forge: (t) => t.hmacWithPublicKey(),
    risk: `Algorithm confusion: the public key is public, so anyone can sign such a token. ${FORGED_INCIDENTS} Pin the accepted algorithm to RS256.`,
  },
  {
    id: "token.unknown-kid",
    title: "signed by an unknown key (kid not in the JWKS)",
    forge: (t) => t.unknownKid(),
    risk: `The signature is not checked against the service's JWKS. ${FORGED_INCIDENTS}`,
  },
  {
    id: "token.embedded-jwk",
    title: "signed by a key embedded in the header (jwk)",
    forge: (t) => t.embeddedJwk(),
    risk: `The receiver trusts a key the token brings with it, so anyone can sign. ${FORGED_INCIDENTS} Use only keys from the JWKS.`,
  },
  {
    id: "token.tampered",
    title: "payload altered after signing",
    forge: (t) => t.tampered(),
    risk: `The signature is not verified at all. ${FORGED_INCIDENTS}`,
  },
  {
    id: "token.scope-missing",
    title: "without the webhooks.receive scope",
    forge: (t) => t.sign({ claims: { scope: "incident.update" } }),
    risk: "The receiver does not check scope: tokens the identity server issued for other purposes pass.",
  },
  {
    id: "token.psap-connector-subject",
    title: "sub and client_id PsapConnector (the legacy identity) with the v3 audience",
    forge: (t) => t.sign({ claims: { sub: "PsapConnector", client_id: "PsapConnector" } }),
    risk: "v3 deliveries come only from Publisher; accepting the legacy identity mixes the two contracts' credentials.",
  },
  {
    id: "token.wrong-subject",
    title: "sub and client_id of a partner client instead of Publisher",
    forge: (t) => t.sign({ claims: { sub: "partner-cad", client_id: "partner-cad" } }),
    risk: "Any client of the identity server could call the receiver as if it were the service: sub and client_id must be Publisher.",
  },
];

function probeOrSkip(ctx: ConformanceContext) {
  const { about, skip } = requireV3About(ctx);
  return skip ? { skip } : { probe: probeEvent(ctx, about) };
}

const validToken: Check = {
  id: "token.valid-accepted",
  group: "tokens",
  required: true,
  title: "A valid Publisher token (as the service sends it) is accepted",
  async run(ctx) {
    const { probe, skip } = probeOrSkip(ctx);
    if (skip) return skip;
    const res = await deliver(ctx, probe);
    ctx.state.validTokenAccepted = res.status >= 200 && res.status < 300;
    if (ctx.state.validTokenAccepted)
      return pass(res.status === 200 ? undefined : `answered ${res.status} (see the exact-200 check)`);
    return fail(
      `${probe.method} ${probe.path} ${describeAnswer(res)} with a valid Publisher token signed by the workbench (${ctx.tokens.issuer()}).`,
      "Every delivery would fail and be retried for an hour, then be lost. Check that the receiver fetches keys from {auth_url}/.well-known/jwks.json and expects iss, aud, sub and scope as the contract states.",
    );
  },
};

function refusalCheck(f: Forgery): Check {
  return {
    id: f.id,
    group: "tokens",
    required: true,
    title: `Refuses a token: ${f.title}`,
    async run(ctx): Promise<CheckOutcome> {
      const { probe, skip } = probeOrSkip(ctx);
      if (skip) return skip;
      if (!ctx.state.validTokenAccepted)
        return skipped("The valid token was not accepted, so a refusal here would prove nothing.");
      const res = await ctx.send({ ...probe, event: {}, token: await f.forge(ctx.tokens, ctx) });
      return judgeRefusal(res, f);
    },
  };
}

/** The verdict on a forged token's answer (v3 and v1/v2 token checks): only 401 or 403 is a refusal that proves validation. */
export function judgeRefusal(res: ReceiverResponse, f: Pick<Forgery, "title" | "risk">): CheckOutcome {
  if (res.status === 401 || res.status === 403) return pass(`answered ${res.status}`);
  if (res.status >= 200 && res.status < 300) return fail(`Accepted (${res.status}) a token ${f.title}.`, f.risk);
  if (res.status === 0)
    return fail(
      `The receiver ${describeAnswer(res)}.`,
      "A bad token should be refused with 401, not break the connection: the receiver's validation may be crashing.",
    );
  if (res.status >= 500)
    return fail(
      `Answered ${res.status} instead of 401.`,
      'A 5xx says "retry", and suggests validation throws rather than refuses; answer 401 (or 403).',
    );
  return pass(`refused with ${res.status}; 401 (or 403) is the expected status`);
}

export const tokenChecks: Check[] = [validToken, ...FORGERIES.map(refusalCheck)];
