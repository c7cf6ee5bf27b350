// authorization_code grant: a code is issued to a signed-in portal user for a
// configured interactive client and redirect URI, bound to a PKCE S256 challenge,
// valid 60 seconds (RFC 6749 recommends at most 10 minutes) and single-use; a
// second redemption revokes the refresh-token family the first one started.
import type { Clock } from "../platform/clock/clock.ts";
import { randomUUID } from "node:crypto";
import type { Runtime } from "../runtime.ts";
import { generateOpaqueValue, hashOpaqueValue } from "./hash-opaque-value.ts";
import { verifyPkce } from "./pkce.ts";
import { tokenError } from "./token-errors.ts";

export const AUTHORIZATION_CODE_LIFETIME_MS = 60_000;

type Deps = { db: Runtime["db"]; clock: Clock };

export async function createAuthorizationCode(
  options: Deps & { clientId: string; userId: string; redirectUri: string; codeChallenge: string; scopes: string[] },
): Promise<string> {
  const deps: Deps = options;
  const code = generateOpaqueValue();
  const now = deps.clock.now();
  await deps.db.authorizationCode.create({
    data: {
      codeHash: hashOpaqueValue(code),
      clientId: options.clientId,
      userId: options.userId,
      redirectUri: options.redirectUri,
      codeChallenge: options.codeChallenge,
      scopes: options.scopes,
      createdAt: now,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_MS),
    },
  });
  return code;
}

/** Spends a code: invalid_grant for an unknown, expired, used or mismatched code or a wrong code_verifier. */
export async function redeemAuthorizationCode(
  options: Deps & { code: string; clientId: string; redirectUri: string; codeVerifier: string },
) {
  const deps: Deps = options;
  const now = deps.clock.now();
  const row = await deps.db.authorizationCode.findUnique({ where: { codeHash: hashOpaqueValue(options.code) } });
  if (!row || row.clientId !== options.clientId) throw tokenError("InvalidGrant", "The authorization code is invalid.");
  // Spend it first (atomically), so two concurrent redemptions cannot both succeed.
  const refreshFamilyId = randomUUID();
  const spent = await deps.db.authorizationCode.updateMany({
    where: { codeHash: row.codeHash, usedAt: null },
    data: { usedAt: now, refreshFamilyId },
  });
  if (spent.count === 0) {
    // A code presented twice was intercepted: the tokens issued for it die too (RFC 6749 4.1.2).
    if (row.refreshFamilyId)
      await deps.db.refreshToken.updateMany({
        where: { familyId: row.refreshFamilyId, revokedAt: null },
        data: { revokedAt: now },
      });
    throw tokenError("InvalidGrant", "The authorization code was already used; the tokens issued for it are revoked.");
  }
  if (row.expiresAt <= now) throw tokenError("InvalidGrant", "The authorization code has expired.");
  if (row.redirectUri !== options.redirectUri)
    throw tokenError("InvalidGrant", "redirect_uri does not match the authorization request.");
  if (!verifyPkce({ verifier: options.codeVerifier, challenge: row.codeChallenge }))
    throw tokenError("InvalidGrant", "code_verifier does not match the code_challenge.");
  return { userId: row.userId, scopes: row.scopes, refreshFamilyId };
}
