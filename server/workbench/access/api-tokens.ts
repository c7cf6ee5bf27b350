// API tokens for the CLI and scripts on a shared workbench (WORKBENCH_TOKEN, sent as
// `Authorization: Bearer …` to /api/trpc). Opaque 256-bit values with a `wbt_` prefix
// (recognisable in a leaked config); only their SHA-256 is stored, so the value is
// shown once, at creation. A token a member authorised for the CLI (`workbench login`,
// cli-grants.ts) names that member: it stops with the member and never acts above their role.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { generateOpaqueValue, hashOpaqueValue } from "../../identity/hash-opaque-value.ts";
import { roleAllows, ZRole, type Role } from "./roles.ts";

type Deps = { db: DbClient; clock: Clock };

const TOKEN_PREFIX = "wbt_";
const MAX_LIFETIME_DAYS = 366;

export const ZCreateApiTokenInput = z.object({
  name: z.string().trim().min(1).max(80),
  role: ZRole,
  /** Days until it expires; none = until revoked. */
  expiresInDays: z.number().int().min(1).max(MAX_LIFETIME_DAYS).optional(),
});
export type TCreateApiTokenInput = z.infer<typeof ZCreateApiTokenInput>;

export type ApiTokenView = {
  id: string;
  name: string;
  role: Role;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
};
const VIEW = {
  id: true,
  name: true,
  role: true,
  createdBy: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
} as const;

export async function createApiToken(
  options: Deps & { input: TCreateApiTokenInput; createdBy: string; memberId?: string },
): Promise<ApiTokenView & { token: string }> {
  const { db, clock, input } = options;
  const token = `${TOKEN_PREFIX}${generateOpaqueValue()}`;
  const now = clock.now();
  const row = await db.workbenchApiToken.create({
    data: {
      id: randomUUID(),
      name: input.name,
      tokenHash: hashOpaqueValue(token),
      role: input.role,
      createdBy: options.createdBy,
      memberId: options.memberId ?? null,
      createdAt: now,
      expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
    },
    select: VIEW,
  });
  return { ...row, token };
}

export function listApiTokens(options: { db: DbClient }): Promise<ApiTokenView[]> {
  return options.db.workbenchApiToken.findMany({ select: VIEW, orderBy: { createdAt: "desc" } });
}

export async function revokeApiToken(options: Deps & { id: string }): Promise<ApiTokenView> {
  const { db, clock } = options;
  const revoked = await db.workbenchApiToken.updateMany({
    where: { id: options.id, revokedAt: null },
    data: { revokedAt: clock.now() },
  });
  const row = await db.workbenchApiToken.findUnique({ where: { id: options.id }, select: VIEW });
  if (!row) throw new AppError("ApiTokenNotFound", "No API token with that id.");
  if (revoked.count === 0 && !row.revokedAt)
    throw new AppError("ApiTokenNotRevoked", "The token could not be revoked.");
  return row;
}

/** The live token a Bearer value names (unknown, revoked or expired, or its member disabled: undefined). */
export async function findApiToken(
  options: Deps & { token: string },
): Promise<{ id: string; name: string; role: Role } | undefined> {
  const { db, clock, token } = options;
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return undefined;
  const row = await db.workbenchApiToken.findUnique({
    where: { tokenHash: hashOpaqueValue(token) },
    include: { member: { select: { role: true, disabledAt: true } } },
  });
  const now = clock.now();
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || row.member?.disabledAt) return undefined;
  // Last use at minute precision: one write per token per minute at most, not one per call.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.workbenchApiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  // A member's token acts with the lesser of its role and the member's role now (demoted: demoted).
  const role = row.member && !roleAllows(row.member.role, row.role) ? row.member.role : row.role;
  return { id: row.id, name: row.name, role };
}

/** Revokes the token this value is (`workbench logout`): true if it was live. Holding a token is the right to end it. */
export async function revokeApiTokenByValue(options: Deps & { token: string }): Promise<boolean> {
  const { db, clock, token } = options;
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return false;
  const revoked = await db.workbenchApiToken.updateMany({
    where: { tokenHash: hashOpaqueValue(token), revokedAt: null },
    data: { revokedAt: clock.now() },
  });
  return revoked.count === 1;
}
