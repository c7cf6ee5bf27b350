// Webhook receiver token validation (platform-interface.md, "Webhook receiver
// token validation", v3 column). Copy this file into a receiver: it needs jose only.
//
//   iss        = {auth_url}, exactly
//   signature  keys from jwks_uri of {auth_url}/.well-known/openid-configuration,
//              fetched over HTTP and cached, refetched on an unknown kid, never pinned
//   typ        at+jwt
//   aud        urn:service:webhooks:{agency_id}, agency id lowercase and dashed
//   sub, client_id  Publisher
//   scope      contains webhooks.receive (authorizes the whole integration)
//   lifetime   valid and unexpired, judged on the caller's clock (here: the workbench clock)
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";

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

export const PUBLISHER = "Publisher";
export const WEBHOOKS_RECEIVE = "webhooks.receive";

export type TokenCheck = { ok: true; claims: JWTPayload } | { ok: false; reason: string };

export type PublisherTokenVerifier = (options: {
  authorization: string | undefined;
  agencyId: string;
  now: Date;
}) => Promise<TokenCheck>;

/** One verifier per process: it holds the cached discovery document and JWKS. */
export function createPublisherTokenVerifier(options: {
  authUrl: string;
  refetchCooldownMs?: number;
}): PublisherTokenVerifier {
  const { authUrl, refetchCooldownMs = JWKS_REFETCH_COOLDOWN_MS } = options;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  // The receiver finds the keys through discovery, never from configuration (spec: "never pin").
  async function keySet() {
    if (jwks) return jwks;
    const res = await fetch(`${authUrl}/.well-known/openid-configuration`, {
      redirect: "error",
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const { jwks_uri } = (await res.json()) as { jwks_uri?: string };
    if (!jwks_uri) throw new Error("discovery document names no jwks_uri");
    jwks = createRemoteJWKSet(new URL(jwks_uri), {
      cooldownDuration: refetchCooldownMs,
      cacheMaxAge: JWKS_MAX_AGE_MS,
      timeoutDuration: 5_000,
    });
    return jwks;
  }

  return async function verifyPublisherToken({ authorization, agencyId, now }) {
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

    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, await keySet(), {
        algorithms: ACCEPTED_ALGORITHMS,
        issuer: authUrl,
        audience: `urn:service:webhooks:${agencyId.toLowerCase()}`,
        typ: "at+jwt",
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "sub", "client_id", "scope"],
      }));
    } catch (e) {
      return { ok: false, reason: describeJoseError(e) };
    }
    if (claims.sub !== PUBLISHER) return { ok: false, reason: `sub must be ${PUBLISHER}` };
    if (claims.client_id !== PUBLISHER) return { ok: false, reason: `client_id must be ${PUBLISHER}` };
    const scopes = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
    if (!scopes.includes(WEBHOOKS_RECEIVE)) return { ok: false, reason: `scope must contain ${WEBHOOKS_RECEIVE}` };
    return { ok: true, claims };
  };
}

function describeJoseError(e: unknown): string {
  if (e instanceof errors.JWTExpired) return "expired";
  if (e instanceof errors.JWTClaimValidationFailed) return `claim ${e.claim} ${e.reason}`;
  if (e instanceof errors.JWKSNoMatchingKey) return "no published key matches the kid";
  if (e instanceof errors.JWSSignatureVerificationFailed) return "signature does not verify";
  if (e instanceof errors.JOSEError) return e.code;
  return "keys could not be fetched from the identity server";
}
