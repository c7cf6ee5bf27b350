// Passwordless sign-in tokens (platform-interface.md, "Sign-in token" and
// LoginUserByToken rules). Opaque, 15 minutes on the workbench clock, single-use,
// and delivered already URL-encoded: the raw value is standard base64 of 32 random
// bytes (it always ends in `=` and often holds `+` and `/`), delivered through
// encodeURIComponent, so it always carries percent-escapes (`%3D` at least). A
// partner that encodes it again sends `%253D`, which decodes to a value whose hash
// matches nothing (rule 6). Only the SHA-256 of the raw value is stored.
import type { Clock } from "../platform/clock/clock.ts";
import { randomBytes } from "node:crypto";
import type { Runtime } from "../runtime.ts";
import { hashOpaqueValue } from "./hash-opaque-value.ts";

export const SIGNIN_TOKEN_LIFETIME_MS = 15 * 60_000;

type Deps = { db: Runtime["db"]; clock: Clock };

export async function issueSigninToken(
  options: Deps & { userId: string; clientId: string; agencyId: string },
): Promise<{ token: string; expiresAtUtc: string }> {
  const deps: Deps = options;
  const raw = randomBytes(32).toString("base64");
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SIGNIN_TOKEN_LIFETIME_MS);
  const { userId, clientId, agencyId } = options;
  await deps.db.signinToken.create({
    data: { tokenHash: hashOpaqueValue(raw), userId, clientId, agencyId, createdAt: now, expiresAt },
  });
  return { token: encodeURIComponent(raw), expiresAtUtc: expiresAt.toISOString() };
}

/**
 * Spends a token (as it arrives decoded once from the query string). Returns the
 * user it signs in, or undefined when it is unknown, expired, spent, or its user
 * may not sign in (rule 2).
 */
export async function redeemSigninToken(options: Deps & { token: string }): Promise<{ userId: string } | undefined> {
  const deps: Deps = options;
  const now = deps.clock.now();
  const tokenHash = hashOpaqueValue(options.token);
  // One statement: concurrent redirects with the same token cannot both win.
  const spent = await deps.db.signinToken.updateMany({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (spent.count === 0) return undefined;
  const row = await deps.db.signinToken.findUnique({ where: { tokenHash } });
  const user = row && (await deps.db.user.findUnique({ where: { id: row.userId } }));
  if (!user?.canSignIn) return undefined;
  return { userId: user.id };
}
