// refresh_token grant with rotation (OAuth 2.0 Security BCP 4.14.2): every use
// spends the token and returns a new one of the same family; presenting a spent
// token again means it leaked, so the whole family is revoked.
import type { Clock } from "../platform/clock/clock.ts";
import { randomUUID } from "node:crypto";
import type { Runtime } from "../platform/runtime.ts";
import { generateOpaqueValue, hashOpaqueValue } from "./hash-opaque-value.ts";
import { tokenError } from "./token-errors.ts";

/** Sliding lifetime of one refresh token on the workbench clock. */
export const REFRESH_TOKEN_LIFETIME_MS = 8 * 3600_000;

type Deps = { db: Runtime["db"]; clock: Clock };

export async function createRefreshToken(options: Deps & { clientId: string; userId: string; scopes: string[]; familyId?: string }): Promise<string> {
  const deps: Deps = options;
  const token = generateOpaqueValue();
  const now = deps.clock.now();
  await deps.db.refreshToken.create({
    data: {
      tokenHash: hashOpaqueValue(token), familyId: options.familyId ?? randomUUID(), clientId: options.clientId, userId: options.userId,
      scopes: options.scopes, createdAt: now, expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    },
  });
  return token;
}

/** Spends a refresh token and returns its successor; reuse of a spent one revokes its family. */
export async function rotateRefreshToken(options: Deps & { refreshToken: string; clientId: string }) {
  const deps: Deps = options;
  const now = deps.clock.now();
  const row = await deps.db.refreshToken.findUnique({ where: { tokenHash: hashOpaqueValue(options.refreshToken) } });
  if (!row || row.clientId !== options.clientId) throw tokenError("invalid_grant", "The refresh token is invalid.");
  if (row.revokedAt) throw tokenError("invalid_grant", "The refresh token was revoked.");
  const spent = await deps.db.refreshToken.updateMany({ where: { tokenHash: row.tokenHash, usedAt: null, revokedAt: null }, data: { usedAt: now } });
  if (spent.count === 0) {
    await deps.db.refreshToken.updateMany({ where: { familyId: row.familyId, revokedAt: null }, data: { revokedAt: now } });
    throw tokenError("invalid_grant", "The refresh token was already used; its family has been revoked.");
  }
  if (row.expiresAt <= now) throw tokenError("invalid_grant", "The refresh token has expired.");
  const user = await deps.db.user.findUnique({ where: { id: row.userId } });
  if (!user?.canSignIn) throw tokenError("invalid_grant", "The user may no longer sign in.");
  const next = await createRefreshToken({ ...deps, clientId: row.clientId, userId: row.userId, scopes: row.scopes, familyId: row.familyId });
  return { userId: row.userId, scopes: row.scopes, refreshToken: next };
}
