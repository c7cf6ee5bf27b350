// Token validation for v1/v2 routes (platform-interface.md, "Webhook receiver
// token validation", the v1 and v2 column): iss {auth_url}, keys from the JWKS,
// aud urn:service:agency:{agency}, sub and client_id PsapConnector, the psap.*
// scope the endpoint requires, unexpired. The probe is the v2 create
// (POST /v2/incident, scope psap.incident) of a Test incident, so a receiver
// that wrongly accepts a forgery records nothing a dispatcher would act on.
//
// No "typ JWT" forgery here: the same table says typ is "n/a" for v1 and v2, so
// a receiver that ignores typ conforms (the engine's tokens carry at+jwt anyway,
// so one that checks it conforms too).
import { randomUUID } from "node:crypto";
import { fail, pass, skipped, type Check, type CheckOutcome } from "../check.ts";
import type { ConformanceContext } from "../context.ts";
import { describeAnswer } from "../receiver-http.ts";
import { OUT_OF_WINDOW_S, type TokenProfile } from "../forge-tokens.ts";
import { sampleIncident } from "../sample-incidents.ts";
import { LEGACY_ROUTES } from "../../webhook-contracts/v2/routes.ts";
import { requireLegacyAbout } from "./legacy-discovery-checks.ts";
import { created, deliverLegacy, planStory } from "./legacy-events.ts";
import { judgeRefusal, type Forgery } from "./token-checks.ts";

const FORGED =
  "Anyone able to reach the receiver could then inject incidents and changes that dispatchers would treat as coming from the service.";
const ROUTE_SCOPE = LEGACY_ROUTES.incident.scope;
/** The engine's credential for the probe's route; every forgery below starts from it. */
const P: TokenProfile = { identity: "PsapConnector", scope: ROUTE_SCOPE };

const FORGERIES: Forgery[] = [
  {
    id: "v2.token.missing",
    title: "no Authorization header",
    forge: () => null,
    risk: `The receiver does not authenticate deliveries at all. ${FORGED}`,
  },
  {
    id: "v2.token.aud-other-agency",
    title: "aud of another agency (urn:service:agency:{other})",
    forge: (t, ctx) => t.sign({ profile: P, claims: { aud: t.otherAgencyLegacyAudience(ctx.otherAgencyId) } }),
    risk: "A token the service minted for another agency is accepted: that agency's events (or a replay of them) land in this agency's system.",
  },
  {
    id: "v2.token.publisher",
    title: "the v3 Publisher token (urn:service:webhooks:{agency}, webhooks.receive)",
    forge: (t) => t.publisher(),
    risk: "The v3 credential is accepted on a v2 route: the receiver checks neither aud against urn:service:agency:{agency} nor sub/client_id PsapConnector.",
  },
  {
    id: "v2.token.aud-v3",
    title: "PsapConnector with the v3 audience (urn:service:webhooks:{agency})",
    forge: (t) => t.sign({ profile: P, claims: { aud: t.audience() } }),
    risk: "aud is not checked: tokens minted for another contract or service are accepted.",
  },
  {
    id: "v2.token.iss-other",
    title: "another issuer",
    forge: (t) => t.sign({ profile: P, claims: { iss: "https://identity.example.invalid" } }),
    risk: "The receiver does not check iss: it trusts tokens regardless of which identity server claims to have issued them.",
  },
  {
    id: "v2.token.iss-trailing-slash",
    title: "issuer with a trailing slash",
    forge: (t) => t.sign({ profile: P, claims: { iss: `${t.issuer()}/` } }),
    risk: "iss must equal {auth_url} exactly; a receiver that normalizes it compares loosely and may accept look-alike issuers.",
  },
  {
    id: "v2.token.expired",
    title: `expired (exp ${OUT_OF_WINDOW_S / 60} min ago)`,
    forge: (t) => {
      const now = t.nowS();
      return t.sign({
        profile: P,
        claims: { iat: now - 3600 - OUT_OF_WINDOW_S, nbf: now - 3600 - OUT_OF_WINDOW_S, exp: now - OUT_OF_WINDOW_S },
      });
    },
    risk: "Expired tokens are accepted: a token captured once (a log, a proxy) works forever.",
  },
  {
    id: "v2.token.not-yet-valid",
    title: `not yet valid (nbf in ${OUT_OF_WINDOW_S / 60} min)`,
    forge: (t) => {
      const later = t.nowS() + OUT_OF_WINDOW_S;
      return t.sign({ profile: P, claims: { iat: later, nbf: later, exp: later + 3600 } });
    },
    risk: "The receiver ignores nbf: tokens are honoured outside their validity window.",
  },
  {
    id: "v2.token.alg-none",
    title: "alg none (unsigned)",
    forge: (t) => t.unsigned(P),
    risk: `Unsigned tokens are accepted: anyone can write one. ${FORGED}`,
  },
  {
    id: "v2.token.hs256-public-key",
    title: "HS256 signed with the published public key",
    forge: (t) => t.hmacWithPublicKey(P),
    risk: `Algorithm confusion: the public key is public, so anyone can sign such a token. ${FORGED} Accept asymmetric algorithms only.`,
  },
  {
    id: "v2.token.unknown-kid",
    title: "signed by an unknown key (kid not in the JWKS)",
    forge: (t) => t.unknownKid(P),
    risk: `The signature is not checked against the service's JWKS. ${FORGED}`,
  },
  {
    id: "v2.token.embedded-jwk",
    title: "signed by a key embedded in the header (jwk)",
    forge: (t) => t.embeddedJwk(P),
    risk: `The receiver trusts a key the token brings with it, so anyone can sign. ${FORGED} Use only keys from the JWKS.`,
  },
  {
    id: "v2.token.tampered",
    title: "payload altered after signing",
    forge: (t) => t.tampered(P),
    risk: `The signature is not verified at all. ${FORGED}`,
  },
  {
    id: "v2.token.scope-missing",
    title: "without any psap.* scope (webhooks.receive instead)",
    forge: (t) => t.sign({ profile: P, claims: { scope: "webhooks.receive" } }),
    risk: "The receiver does not check scope: tokens the identity server issued for other purposes pass.",
  },
  {
    id: "v2.token.scope-read-only",
    title: "only psap.read, the /about scope",
    forge: (t) => t.sign({ profile: P, claims: { scope: "psap.read" } }),
    risk: `The route's own scope (${ROUTE_SCOPE}) is not required: a read-only credential can write incidents.`,
  },
  {
    id: "v2.token.scope-other-route",
    title: `another route's scope (${LEGACY_ROUTES.close.scope} on POST /v2/incident)`,
    forge: (t) => t.sign({ profile: P, claims: { scope: LEGACY_ROUTES.close.scope } }),
    risk: `Each v1/v2 endpoint requires its own psap.* scope; accepting another route's scope lets a credential limited to one operation perform all of them.`,
  },
  {
    id: "v2.token.publisher-subject",
    title: "sub and client_id Publisher (the v3 identity) with the v2 audience",
    forge: (t) => t.sign({ profile: P, claims: { sub: "Publisher", client_id: "Publisher" } }),
    risk: "v1/v2 deliveries come only from PsapConnector; accepting the v3 identity mixes the two contracts' credentials.",
  },
  {
    id: "v2.token.wrong-subject",
    title: "sub and client_id of a partner client instead of PsapConnector",
    forge: (t) => t.sign({ profile: P, claims: { sub: "partner-cad", client_id: "partner-cad" } }),
    risk: "Any client of the identity server could call the receiver as if it were the service: sub and client_id must be PsapConnector.",
  },
];

/** POST /v{major}/incident with a fresh Test incident (a new requestId each time, so no refusal is mistaken for a duplicate). */
function probe(ctx: ConformanceContext): { event?: ReturnType<typeof planStory>[number]; skip?: CheckOutcome } {
  const r = requireLegacyAbout(ctx);
  if (r.skip) return { skip: r.skip };
  return { event: planStory(ctx, r.major, [created(sampleIncident(ctx.samples, { purpose: "Test" }))])[0]! };
}

const validToken: Check = {
  id: "v2.token.valid-accepted",
  group: "tokens",
  required: true,
  title: `A valid PsapConnector token with the route's scope (${ROUTE_SCOPE}), as the service sends it, is accepted`,
  async run(ctx) {
    const { event, skip } = probe(ctx);
    if (skip) return skip;
    const res = await deliverLegacy(ctx, event!);
    ctx.state.validTokenAccepted = res.status >= 200 && res.status < 300;
    if (ctx.state.validTokenAccepted)
      return pass(res.status === 200 ? undefined : `answered ${res.status} (see the exact-200 check)`);
    return fail(
      `${event!.method} ${event!.path} ${describeAnswer(res)} with a valid PsapConnector token (aud ${ctx.tokens.legacyAudience()}, scope ${ROUTE_SCOPE}) signed by the workbench (${ctx.tokens.issuer()}).`,
      "Every delivery would fail and be retried for an hour, then be lost. Check that the receiver fetches keys from {auth_url}/.well-known/jwks.json and expects iss, aud urn:service:agency:{agency}, sub PsapConnector and each route's psap.* scope.",
    );
  },
};

function refusalCheck(f: Forgery): Check {
  return {
    id: f.id,
    group: "tokens",
    required: true,
    title: `Refuses a token on a v2 route: ${f.title}`,
    async run(ctx): Promise<CheckOutcome> {
      const { event, skip } = probe(ctx);
      if (skip) return skip;
      if (!ctx.state.validTokenAccepted)
        return skipped("The valid token was not accepted, so a refusal here would prove nothing.");
      const res = await ctx.send({
        method: event!.method,
        path: event!.path,
        body: { ...event!.body, requestId: randomUUID() },
        token: await f.forge(ctx.tokens, ctx),
      });
      return judgeRefusal(res, f);
    },
  };
}

export const legacyTokenChecks: Check[] = [validToken, ...FORGERIES.map(refusalCheck)];
