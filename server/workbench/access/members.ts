// Workbench members: the people who sign in to a shared workbench (not dispatchers,
// who sign in to the portal). Passwords are scrypt hashes in the client-secret format.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { AppError } from "../../platform/errors.ts";
import { hashClientSecret, verifyClientSecret } from "../../identity/client-secret.ts";
import { recordFailedGuess, recordGoodGuess, refuseWhileWaiting } from "../../identity/guess-throttle.ts";
import { ZRole, type Role } from "./roles.ts";

type Deps = { db: DbClient; clock: Clock };

export const ZUsername = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, "letters, digits and . _ @ - only");
export const ZPassword = z.string().min(12, "at least 12 characters").max(200);
export const ZCreateMemberInput = z.object({ username: ZUsername, role: ZRole, password: ZPassword });
export type TCreateMemberInput = z.infer<typeof ZCreateMemberInput>;

export type MemberView = { id: string; username: string; role: Role; createdAt: Date; disabledAt: Date | null };

const VIEW = { id: true, username: true, role: true, createdAt: true, disabledAt: true } as const;

export async function createMember(options: Deps & { input: TCreateMemberInput }): Promise<MemberView> {
  const { db, clock, input } = options;
  const usernameKey = input.username.toLowerCase();
  if (await db.workbenchMember.findUnique({ where: { usernameKey } }))
    throw new AppError("MemberExists", `A member named ${input.username} exists already.`);
  return db.workbenchMember.create({
    data: {
      id: randomUUID(),
      username: input.username,
      usernameKey,
      role: input.role,
      passwordHash: await hashClientSecret(input.password),
      createdAt: clock.now(),
    },
    select: VIEW,
  });
}

/** Creates `username` as an admin with this password, or gives an existing member of that name the password and the admin role back. */
export async function upsertAdmin(options: Deps & { username: string; password: string }): Promise<void> {
  const { db, clock } = options;
  const usernameKey = options.username.toLowerCase();
  const passwordHash = await hashClientSecret(options.password);
  await db.workbenchMember.upsert({
    where: { usernameKey },
    create: {
      id: randomUUID(),
      username: options.username,
      usernameKey,
      role: "admin",
      passwordHash,
      createdAt: clock.now(),
    },
    update: { role: "admin", passwordHash, disabledAt: null },
  });
}

export function listMembers(options: { db: DbClient }): Promise<MemberView[]> {
  return options.db.workbenchMember.findMany({ select: VIEW, orderBy: { usernameKey: "asc" } });
}

/** Role, enabled/disabled, or a new password. The last enabled admin cannot be demoted or disabled. */
export async function updateMember(
  options: Deps & { id: string; role?: Role; disabled?: boolean; password?: string },
): Promise<MemberView> {
  const { db, clock } = options;
  const member = await db.workbenchMember.findUnique({ where: { id: options.id } });
  if (!member) throw new AppError("MemberNotFound", "No member with that id.");
  const losesAdmin =
    member.role === "admin" &&
    !member.disabledAt &&
    ((options.role && options.role !== "admin") || options.disabled === true);
  if (losesAdmin && (await db.workbenchMember.count({ where: { role: "admin", disabledAt: null } })) <= 1) {
    throw new AppError("LastEnabledAdmin", "This is the last enabled admin: make another admin first.");
  }
  const updated = await db.workbenchMember.update({
    where: { id: options.id },
    data: {
      role: options.role,
      disabledAt: options.disabled === undefined ? undefined : options.disabled ? clock.now() : null,
      passwordHash: options.password ? await hashClientSecret(options.password) : undefined,
    },
    select: VIEW,
  });
  // A disabled member, or one with a new password, is signed out everywhere.
  if (options.disabled || options.password)
    await db.workbenchSession.updateMany({
      where: { memberId: options.id, endedAt: null },
      data: { endedAt: clock.now() },
    });
  return updated;
}

/**
 * The enabled member with this name and password, or undefined (without saying which part was wrong).
 * Guessing is slowed down per name and per source (decision 0051): while either waits, this throws
 * TooManyAttempts before the password is looked at.
 */
export async function authenticateMember(options: {
  db: DbClient;
  clock: Clock;
  username: string;
  password: string;
  source: string;
}): Promise<MemberView | undefined> {
  const usernameKey = options.username.trim().toLowerCase();
  const attempt = { kind: "member" as const, subject: usernameKey, source: options.source };
  const { pairCounted } = await refuseWhileWaiting(options, attempt);
  const member =
    !usernameKey || usernameKey.length > 64 || options.password.length > 200
      ? null
      : await options.db.workbenchMember.findUnique({ where: { usernameKey } });
  if (!member || member.disabledAt || !(await verifyClientSecret(options.password, member.passwordHash))) {
    await recordFailedGuess(options, attempt);
    return undefined;
  }
  await recordGoodGuess(options, attempt, { pairCounted });
  return {
    id: member.id,
    username: member.username,
    role: member.role,
    createdAt: member.createdAt,
    disabledAt: member.disabledAt,
  };
}

export async function hasEnabledAdmin(options: { db: DbClient }): Promise<boolean> {
  return (await options.db.workbenchMember.count({ where: { role: "admin", disabledAt: null } })) > 0;
}
