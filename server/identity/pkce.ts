// RFC 7636 PKCE, S256 only: `plain` would let anyone who sees the authorization
// request redeem the code, so the workbench refuses it (the spec makes PKCE mandatory).
import { createHash, timingSafeEqual } from "node:crypto";

/** RFC 7636 4.1: 43-128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** A base64url SHA-256: 43 characters. */
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export const isValidCodeChallenge = (challenge: string) => CHALLENGE.test(challenge);

export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function verifyPkce(options: { verifier: string; challenge: string }): boolean {
  if (!VERIFIER.test(options.verifier)) return false;
  const actual = Buffer.from(s256Challenge(options.verifier));
  const expected = Buffer.from(options.challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
