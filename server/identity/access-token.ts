// Access tokens are RFC 9068 JWTs (typ at+jwt) signed RS256 by the current key.
// Minting is used by the token endpoint and by the webhook engine (the service's
// own Publisher / PsapConnector identities); verification by every protected
// surface (inbound API, Account API) against the same keys, on the workbench clock.
import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { Clock } from "../platform/clock/clock.ts";
import { SIGNING_ALG, type SigningKeyStore } from "../platform/signing-keys.ts";

export const ACCESS_TOKEN_TYP = "at+jwt";
/** Clock skew accepted on exp/nbf/iat, in seconds. */
export const CLOCK_TOLERANCE_S = 30;

export type AccessTokenClaims = JWTPayload & {
  client_id: string;
  scope: string;
  agency_context?: string;
  username?: string;
  name?: string;
  email?: string;
  role?: string;
};

export type MintOptions = {
  keys: SigningKeyStore;
  clock: Clock;
  issuer: string;
  subject: string;
  audience: string | string[];
  clientId: string;
  scope: string[];
  lifetimeS: number;
  /** Further contract claims (agency_context, username, name, email, role). */
  claims?: Record<string, string | undefined>;
};

export async function mintAccessToken(
  options: MintOptions,
): Promise<{ accessToken: string; expiresIn: number; expiresAt: Date; jti: string }> {
  const { keys, clock, issuer, subject, audience, clientId, scope, lifetimeS } = options;
  const key = await keys.current();
  const iat = Math.floor(clock.nowMs() / 1000);
  const jti = randomUUID();
  const extra = Object.fromEntries(
    Object.entries(options.claims ?? {}).filter(([, v]) => v !== undefined && v !== null),
  );
  const accessToken = await new SignJWT({ ...extra, client_id: clientId, scope: scope.join(" ") })
    .setProtectedHeader({ alg: SIGNING_ALG, typ: ACCESS_TOKEN_TYP, kid: key.kid })
    .setIssuer(issuer)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(iat + lifetimeS)
    .setJti(jti)
    .sign(key.privateKey);
  return { accessToken, expiresIn: lifetimeS, expiresAt: new Date((iat + lifetimeS) * 1000), jti };
}

export type VerifyFailure =
  | "malformed"
  | "unknown_key"
  | "bad_signature"
  | "expired"
  | "not_yet_valid"
  | "wrong_issuer"
  | "wrong_audience"
  | "wrong_type"
  | "invalid_claims";

export class AccessTokenError extends Error {
  constructor(
    readonly reason: VerifyFailure,
    message: string,
  ) {
    super(message);
    this.name = "AccessTokenError";
  }
}

export type VerifyOptions = {
  token: string;
  keys: SigningKeyStore;
  clock: Clock;
  issuer: string;
  /** When given, `aud` must contain it. */
  audience?: string;
};

/** Verifies signature (our keys only, RS256 only), typ, iss, exp/nbf on the workbench clock, and aud when asked. */
export async function verifyAccessToken(options: VerifyOptions): Promise<AccessTokenClaims> {
  const { token, keys, clock, issuer, audience } = options;
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== SIGNING_ALG)
      throw new AccessTokenError("malformed", `alg ${String(header.alg)} is not accepted`);
    if (header.typ !== ACCESS_TOKEN_TYP) throw new AccessTokenError("wrong_type", "typ must be at+jwt");
    kid = header.kid;
  } catch (e) {
    if (e instanceof AccessTokenError) throw e;
    throw new AccessTokenError("malformed", "not a JWT");
  }
  if (!kid) throw new AccessTokenError("unknown_key", "the token names no kid");
  const key = await keys.publicKey(kid);
  if (!key) throw new AccessTokenError("unknown_key", "the token was not signed by a current key");
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [SIGNING_ALG],
      typ: ACCESS_TOKEN_TYP,
      issuer,
      audience,
      currentDate: clock.now(),
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["exp", "iat", "sub", "client_id", "scope"],
    });
    return payload as AccessTokenClaims;
  } catch (e) {
    throw mapJoseError(e);
  }
}

function mapJoseError(e: unknown): AccessTokenError {
  if (e instanceof joseErrors.JWTExpired) return new AccessTokenError("expired", "the token has expired");
  if (e instanceof joseErrors.JWSSignatureVerificationFailed)
    return new AccessTokenError("bad_signature", "the signature does not verify");
  if (e instanceof joseErrors.JWTClaimValidationFailed) {
    if (e.claim === "iss") return new AccessTokenError("wrong_issuer", "wrong issuer");
    if (e.claim === "aud") return new AccessTokenError("wrong_audience", "wrong audience");
    if (e.claim === "nbf" || e.claim === "iat")
      return new AccessTokenError("not_yet_valid", "the token is not yet valid");
    if (e.claim === "typ") return new AccessTokenError("wrong_type", "typ must be at+jwt");
    return new AccessTokenError("invalid_claims", `claim ${e.claim} is missing or invalid`);
  }
  return new AccessTokenError("malformed", "the token could not be verified");
}
