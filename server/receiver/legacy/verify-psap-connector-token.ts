// Webhook receiver token validation for v1 and v2 (platform-interface.md,
// "Webhook receiver token validation", v1 and v2 column). Copy this file into a
// legacy receiver: it needs jose only.
//
//   iss        the service's identity server, {auth_url} (the spec does not state it for v1/v2; this workbench has one issuer)
//   signature  keys from jwks_uri of the discovery document, fetched and cached, never pinned
//   typ        n/a (not checked)
//   aud        urn:service:agency:{agency_id}, agency id lowercase and dashed
//   sub, client_id  PsapConnector
//   scope      the psap.* scope the endpoint requires (contracts/v2/routes.ts: psap.incident, psap.incident.close, …; /about: psap.read)
//   lifetime   valid and unexpired, on the caller's clock
import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from "jose";

const ACCEPTED_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384"];
const KEY_CARRYING_HEADERS = ["jwk", "jku", "x5u", "x5c"];
const CLOCK_TOLERANCE_S = 30;
const JWKS_REFETCH_COOLDOWN_MS = 5_000;
const JWKS_MAX_AGE_MS = 10 * 60_000;

export const PSAP_CONNECTOR = "PsapConnector";

export type TokenCheck = { ok: true; claims: JWTPayload } | { ok: false; reason: string };
export type PsapConnectorTokenVerifier = (options: {
  authorization: string | undefined;
  agencyId: string;
  scope: string;
  now: Date;
}) => Promise<TokenCheck>;

export function createPsapConnectorTokenVerifier(options: { authUrl: string }): PsapConnectorTokenVerifier {
  const { authUrl } = options;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
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
      cooldownDuration: JWKS_REFETCH_COOLDOWN_MS,
      cacheMaxAge: JWKS_MAX_AGE_MS,
      timeoutDuration: 5_000,
    });
    return jwks;
  }

  return async function verifyPsapConnectorToken({ authorization, agencyId, scope, now }) {
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
        audience: `urn:service:agency:${agencyId.toLowerCase()}`,
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ["exp", "sub", "client_id", "scope"],
      }));
    } catch (e) {
      return { ok: false, reason: describeJoseError(e) };
    }
    if (claims.sub !== PSAP_CONNECTOR) return { ok: false, reason: `sub must be ${PSAP_CONNECTOR}` };
    if (claims.client_id !== PSAP_CONNECTOR) return { ok: false, reason: `client_id must be ${PSAP_CONNECTOR}` };
    const scopes = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
    if (!scopes.includes(scope)) return { ok: false, reason: `scope must contain ${scope}` };
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
