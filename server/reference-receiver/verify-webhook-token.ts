// Webhook receiver token validation (platform-interface.md, "Webhook receiver
// token validation"), one verifier for every contract and every receiver in the
// workbench: the embedded receivers (v3 and legacy routes) and the conformance
// kit's fixture receivers. Copy this file into a receiver: it needs jose only.
//
//                  v3 (Publisher)                         v1 / v2 (PsapConnector)
//   iss            {auth_url}, exactly                    {auth_url} (one issuer here)
//   signature      keys from jwks_uri of {auth_url}/.well-known/openid-configuration,
//                  fetched over HTTP and cached, refetched on an unknown kid, never pinned
//   typ            at+jwt                                 not checked
//   aud            urn:service:webhooks:{agency_id}       urn:service:agency:{agency_id}
//                  (agency id lowercase and dashed)
//   sub, client_id Publisher                              PsapConnector
//   scope          contains webhooks.receive              contains the route's psap.* scope
//   lifetime       valid and unexpired, judged on the caller's clock (here: the workbench clock)
//
// A token accepted once is remembered with the key that verified it: the same token on the same
// route is accepted again without an RSA verification while that key is still in the key set and
// the token's lifetime still holds on the caller's clock (a sender reuses a token for many requests).
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type CryptoKey,
  type JWTPayload,
  type KeyObject,
} from "jose";

/** Asymmetric algorithms only: "none" and the HMAC family (HS*) would let anyone holding a public key forge tokens. */
const ACCEPTED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384"];
/** Headers that name their own key: trusting them lets the token choose the key that verifies it. */
const KEY_CARRYING_HEADERS = ["jwk", "jku", "x5u", "x5c"];
/** Skew allowed on exp/nbf between the identity server's clock and ours. */
const CLOCK_TOLERANCE_S = 30;
/**
 * An unknown kid triggers a JWKS refetch at most this often (jose's cooldown), so
 * forged kids cannot make the receiver hammer the identity server. Short enough
 * that a key rotation costs at most the engine's first few retries (1 s, 2 s, 4 s).
 */
const JWKS_REFETCH_COOLDOWN_MS = 5_000;
/** Keys are re-read at least this often even when every kid is known, so a retired key drops out. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/**
 * Tokens whose signature verified, remembered so that the same token on the next delivery costs no
 * RSA verification (a sender reuses one token for many deliveries). Bounded: the oldest go first.
 */
const VERIFIED_TOKENS_MAX = 1_000;

export const PUBLISHER = "Publisher";
export const PSAP_CONNECTOR = "PsapConnector";
export const WEBHOOKS_RECEIVE = "webhooks.receive";

export type TokenCheck = { ok: true; claims: JWTPayload } | { ok: false; reason: string };

/** What a token must say to be accepted on one route. */
export type TokenRequirements = {
  audience: string;
  /** sub and client_id, both. */
  identity: string;
  /** One scope the token's scope list must contain. */
  scope: string;
  /** The JOSE typ header, when the contract fixes one (v3: at+jwt). */
  typ?: string;
};

/** v3: the Publisher credential for one agency. */
export const publisherRequirements = (agencyId: string): TokenRequirements => ({
  audience: `urn:service:webhooks:${agencyId.toLowerCase()}`,
  identity: PUBLISHER,
  scope: WEBHOOKS_RECEIVE,
  typ: "at+jwt",
});

/** v1 and v2: the PsapConnector credential for one agency, with the route's psap.* scope. */
export const psapConnectorRequirements = (agencyId: string, scope: string): TokenRequirements => ({
  audience: `urn:service:agency:${agencyId.toLowerCase()}`,
  identity: PSAP_CONNECTOR,
  scope,
});

export type WebhookTokenVerifier = (
  options: { authorization: string | undefined; now: Date } & TokenRequirements,
) => Promise<TokenCheck>;

/** One verifier per receiver process: it holds the cached discovery document and JWKS. */
export function createWebhookTokenVerifier(options: {
  authUrl: string;
  refetchCooldownMs?: number;
}): WebhookTokenVerifier {
  const { authUrl, refetchCooldownMs = JWKS_REFETCH_COOLDOWN_MS } = options;
  let jwks: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const verified = new Map<string, VerifiedToken>();

  // The receiver finds the keys through discovery, never from configuration (spec: "never pin").
  async function discoverKeySet() {
    const res = await fetch(`${authUrl}/.well-known/openid-configuration`, {
      redirect: "error",
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const { jwks_uri } = (await res.json()) as { jwks_uri?: string };
    if (!jwks_uri) throw new Error("discovery document names no jwks_uri");
    return createRemoteJWKSet(new URL(jwks_uri), {
      cooldownDuration: refetchCooldownMs,
      cacheMaxAge: JWKS_MAX_AGE_MS,
      timeoutDuration: 5_000,
    });
  }
  function keySet() {
    // Concurrent first requests share one discovery; a failed one is tried again by the next request.
    jwks ??= discoverKeySet().catch((e: unknown) => {
      jwks = undefined;
      throw e;
    });
    return jwks;
  }

  return async function verifyWebhookToken({ authorization, now, audience, identity, scope, typ }) {
    const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? "")?.[1];
    if (!token) return { ok: false, reason: "no Bearer token" };

    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return { ok: false, reason: "not a JWS" };
    }
    if (!header.alg || !ACCEPTED_ALGORITHMS.includes(header.alg))
      return { ok: false, reason: `alg ${String(header.alg)} is not accepted` };
    const embedded = KEY_CARRYING_HEADERS.find((h) => h in header);
    if (embedded) return { ok: false, reason: `header ${embedded} is refused: keys come from jwks_uri only` };

    // The same token for the same route, verified before by a key the key set still holds: only the
    // time can have changed its verdict (everything else a token says is fixed by its signature).
    const memoKey = `${audience}\u0000${identity}\u0000${scope}\u0000${typ ?? ""}\u0000${token}`;
    const remembered = verified.get(memoKey);
    if (remembered && withinLifetime(remembered.claims, now)) {
      const current = await (await keySet())(header).catch(() => null);
      if (current === remembered.key) return { ok: true, claims: remembered.claims };
    }
    verified.delete(memoKey);

    let claims: JWTPayload;
    let key: CryptoKey | KeyObject | undefined;
    try {
      const set = await keySet();
      ({ payload: claims } = await jwtVerify(
        token,
        async (protectedHeader, flattened) => (key = await set(protectedHeader, flattened)),
        {
          algorithms: ACCEPTED_ALGORITHMS,
          issuer: authUrl,
          audience,
          ...(typ ? { typ } : {}),
          currentDate: now,
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ["exp", "sub", "client_id", "scope"],
        },
      ));
    } catch (e) {
      return { ok: false, reason: describeJoseError(e) };
    }
    if (claims.sub !== identity) return { ok: false, reason: `sub must be ${identity}` };
    if (claims.client_id !== identity) return { ok: false, reason: `client_id must be ${identity}` };
    const scopes = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
    if (!scopes.includes(scope)) return { ok: false, reason: `scope must contain ${scope}` };
    if (key) {
      if (verified.size >= VERIFIED_TOKENS_MAX) verified.delete(verified.keys().next().value!);
      verified.set(memoKey, { key, claims });
    }
    return { ok: true, claims };
  };
}

/** A token accepted on one route, and the key that verified it. */
type VerifiedToken = { key: CryptoKey | KeyObject; claims: JWTPayload };

/** The lifetime checks jwtVerify makes, on `now` with the same tolerance (exp is required, nbf optional). */
function withinLifetime(claims: JWTPayload, now: Date): boolean {
  const nowS = Math.floor(now.getTime() / 1000);
  if (typeof claims.exp !== "number" || claims.exp <= nowS - CLOCK_TOLERANCE_S) return false;
  return claims.nbf === undefined || (typeof claims.nbf === "number" && claims.nbf <= nowS + CLOCK_TOLERANCE_S);
}

export type PublisherTokenVerifier = (options: {
  authorization: string | undefined;
  agencyId: string;
  now: Date;
}) => Promise<TokenCheck>;

export type PsapConnectorTokenVerifier = (options: {
  authorization: string | undefined;
  agencyId: string;
  scope: string;
  now: Date;
}) => Promise<TokenCheck>;

/** The v3 check on top of a shared verifier (one key cache for both contracts). */
export const publisherTokenVerifier =
  (verify: WebhookTokenVerifier): PublisherTokenVerifier =>
  ({ authorization, agencyId, now }) =>
    verify({ authorization, now, ...publisherRequirements(agencyId) });

/** The v1/v2 check on top of a shared verifier. */
export const psapConnectorTokenVerifier =
  (verify: WebhookTokenVerifier): PsapConnectorTokenVerifier =>
  ({ authorization, agencyId, scope, now }) =>
    verify({ authorization, now, ...psapConnectorRequirements(agencyId, scope) });

function describeJoseError(e: unknown): string {
  if (e instanceof errors.JWTExpired) return "expired";
  if (e instanceof errors.JWTClaimValidationFailed) return `claim ${e.claim} ${e.reason}`;
  if (e instanceof errors.JWKSNoMatchingKey) return "no published key matches the kid";
  if (e instanceof errors.JWSSignatureVerificationFailed) return "signature does not verify";
  if (e instanceof errors.JOSEError) return e.code;
  return "keys could not be fetched from the identity server";
}
