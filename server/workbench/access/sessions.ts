// Dashboard sessions of shared mode: the cookie holds a random id, the database its
// SHA-256 (as portal sessions do). 12 hours on the workbench clock, or until sign-out.
// The cookie is non-persistent: it ends with the browser too.
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { generateOpaqueValue, hashOpaqueValue } from "../../identity/hash-opaque-value.ts";
import type { Role } from "./roles.ts";

export const WORKBENCH_SESSION_COOKIE = "wb_session";
export const WORKBENCH_SESSION_LIFETIME_MS = 12 * 3600_000;

type Deps = { db: DbClient; clock: Clock };

export async function createWorkbenchSession(options: Deps & { memberId: string }): Promise<string> {
  const { db, clock } = options;
  const id = generateOpaqueValue();
  const now = clock.now();
  await db.workbenchSession.create({
    data: {
      idHash: hashOpaqueValue(id),
      memberId: options.memberId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + WORKBENCH_SESSION_LIFETIME_MS),
    },
  });
  return id;
}

/** The member a live session names: undefined when unknown, ended, expired, or the member is disabled. */
export async function findWorkbenchSession(
  options: Deps & { sessionId: string | undefined },
): Promise<{ memberId: string; username: string; role: Role } | undefined> {
  const { db, clock, sessionId } = options;
  if (!sessionId || sessionId.length > 100) return undefined;
  const row = await db.workbenchSession.findUnique({ where: { idHash: hashOpaqueValue(sessionId) } });
  if (!row || row.endedAt || row.expiresAt <= clock.now()) return undefined;
  const member = await db.workbenchMember.findUnique({ where: { id: row.memberId } });
  if (!member || member.disabledAt) return undefined;
  return { memberId: member.id, username: member.username, role: member.role };
}

export async function endWorkbenchSession(options: Deps & { sessionId: string | undefined }): Promise<void> {
  const { db, clock, sessionId } = options;
  if (!sessionId || sessionId.length > 100) return;
  await db.workbenchSession.updateMany({
    where: { idHash: hashOpaqueValue(sessionId), endedAt: null },
    data: { endedAt: clock.now() },
  });
}

/** A cookie's value in a Cookie header. */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
