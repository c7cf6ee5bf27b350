// refresh_token grant with rotation (OAuth 2.0 Security BCP 4.14.2): every use
// spends the token and returns a new one of the same family; presenting a spent
// token again means it leaked, so the whole family is revoked.
//
// Concurrent use of one token: the conditional UPDATE (usedAt IS NULL) spends it
// and the successor is inserted in the same transaction. A second redemption's
// UPDATE waits for that transaction's row lock, then finds the token spent (0
// rows) and revokes the family, which by then holds the committed successor. With
// the successor written after the spend's commit (as before), a revocation could
// run in between and miss it: the leaked token's family kept a live member.
import type { Clock } from "../platform/clock/clock.ts";
import { randomUUID } from "node:crypto";
import type { Runtime } from "../runtime.ts";
import { generateOpaqueValue, hashOpaqueValue } from "./hash-opaque-value.ts";
import { tokenError } from "./token-errors.ts";

/** Sliding lifetime of one refresh token on the workbench clock. */
export const REFRESH_TOKEN_LIFETIME_MS = 8 * 3600_000;

type Deps = { db: Runtime["db"]; clock: Clock };
type Writer = { db: Pick<Runtime["db"], "refreshToken">; clock: Clock };

export async function createRefreshToken(
  options: Writer & { clientId: string; userId: string; scopes: string[]; familyId?: string },
): Promise<string> {
  const deps: Writer = options;
  const token = generateOpaqueValue();
  const now = deps.clock.now();
  await deps.db.refreshToken.create({
    data: {
      tokenHash: hashOpaqueValue(token),
      familyId: options.familyId ?? randomUUID(),
      clientId: options.clientId,
      userId: options.userId,
      scopes: options.scopes,
      createdAt: now,
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_LIFETIME_MS),
    },
  });
  return token;
}

/** Spends a refresh token and returns its successor; reuse of a spent one revokes its family. */
export async function rotateRefreshToken(options: Deps & { refreshToken: string; clientId: string }) {
  const deps: Deps = options;
  const now = deps.clock.now();
  const row = await deps.db.refreshToken.findUnique({ where: { tokenHash: hashOpaqueValue(options.refreshToken) } });
  if (!row || row.clientId !== options.clientId) throw tokenError("InvalidGrant", "The refresh token is invalid.");
  if (row.revokedAt) throw tokenError("InvalidGrant", "The refresh token was revoked.");
  const user = await deps.db.user.findUnique({ where: { id: row.userId } });
  const outcome = await deps.db.$transaction(async (tx) => {
    const spent = await tx.refreshToken.updateMany({
      where: { tokenHash: row.tokenHash, usedAt: null, revokedAt: null },
      data: { usedAt: now },
    });
    if (spent.count === 0) return { refused: "reused" as const };
    // Spent either way: an expired token, or one of a user who may no longer sign in, has no successor.
    if (row.expiresAt <= now) return { refused: "expired" as const };
    if (!user?.canSignIn) return { refused: "user" as const };
    return {
      next: await createRefreshToken({
        db: tx,
        clock: deps.clock,
        clientId: row.clientId,
        userId: row.userId,
        scopes: row.scopes,
        familyId: row.familyId,
      }),
    };
  });
  if (outcome.refused === "reused") {
    await deps.db.refreshToken.updateMany({
      where: { familyId: row.familyId, revokedAt: null },
      data: { revokedAt: now },
    });
    throw tokenError("InvalidGrant", "The refresh token was already used; its family has been revoked.");
  }
  if (outcome.refused === "expired") throw tokenError("InvalidGrant", "The refresh token has expired.");
  if (outcome.refused === "user") throw tokenError("InvalidGrant", "The user may no longer sign in.");
  return { userId: row.userId, scopes: row.scopes, refreshToken: outcome.next };
}
