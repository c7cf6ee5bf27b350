// Dashboard sessions of shared mode: the cookie holds a random id, the database its
// SHA-256 (as portal sessions do). 12 hours on the workbench clock, or until sign-out.
// The cookie is non-persistent: it ends with the browser too.
//
// A cookie is scoped by host, not by port: a page on another port of the workbench's host receives
// it and can set it (docs/decisions/0071). So each session also has a key, made with it and given
// only to the page that signed in, which keeps it where another port cannot read it (the origin's
// storage) and sends it with every data call and state change (SESSION_KEY_HEADER). A cookie
// replayed without its key, or a session cookie another port set, is refused there.
import { timingSafeEqual } from "node:crypto";
import type { Clock } from "../../platform/clock/clock.ts";
import type { DbClient } from "../../platform/db/client.ts";
import { generateOpaqueValue, hashOpaqueValue } from "../../identity/hash-opaque-value.ts";
import type { Role } from "./roles.ts";

export const WORKBENCH_SESSION_COOKIE = "wb_session";
/** Over https the cookie is `__Host-` prefixed: Secure, Path=/, no Domain, so no subdomain can set it. */
export const SECURE_WORKBENCH_SESSION_COOKIE = "__Host-wb_session";
export const WORKBENCH_SESSION_LIFETIME_MS = 12 * 3600_000;

/** The session cookie's name on this workbench's origin. */
export const sessionCookieName = (publicUrl: string) =>
  publicUrl.startsWith("https://") ? SECURE_WORKBENCH_SESSION_COOKIE : WORKBENCH_SESSION_COOKIE;

type Deps = { db: DbClient; clock: Clock };

/** A new session: its id (the cookie) and its key (for the page that signed in only). */
export async function createWorkbenchSession(
  options: Deps & { memberId: string },
): Promise<{ id: string; key: string }> {
  const { db, clock } = options;
  const id = generateOpaqueValue();
  const key = generateOpaqueValue();
  const now = clock.now();
  await db.workbenchSession.create({
    data: {
      idHash: hashOpaqueValue(id),
      keyHash: hashOpaqueValue(key),
      memberId: options.memberId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + WORKBENCH_SESSION_LIFETIME_MS),
    },
  });
  return { id, key };
}

export type WorkbenchSessionView = {
  memberId: string;
  username: string;
  role: Role;
  /** Whether the key presented is this session's: false without one, or for a session without a key. */
  keyMatches: boolean;
};

/** The member a live session names: undefined when unknown, ended, expired, or the member is disabled. */
export async function findWorkbenchSession(
  options: Deps & { sessionId: string | undefined; sessionKey?: string | null },
): Promise<WorkbenchSessionView | undefined> {
  const { db, clock, sessionId } = options;
  if (!sessionId || sessionId.length > 100) return undefined;
  const row = await db.workbenchSession.findUnique({ where: { idHash: hashOpaqueValue(sessionId) } });
  if (!row || row.endedAt || row.expiresAt <= clock.now()) return undefined;
  const member = await db.workbenchMember.findUnique({ where: { id: row.memberId } });
  if (!member || member.disabledAt) return undefined;
  return {
    memberId: member.id,
    username: member.username,
    role: member.role,
    keyMatches: sameHash(row.keyHash, options.sessionKey),
  };
}

function sameHash(stored: string | null, presented: string | null | undefined): boolean {
  if (!stored || !presented || presented.length > 100) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(hashOpaqueValue(presented));
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function endWorkbenchSession(options: Deps & { sessionId: string | undefined }): Promise<void> {
  const { db, clock, sessionId } = options;
  if (!sessionId || sessionId.length > 100) return;
  await db.workbenchSession.updateMany({
    where: { idHash: hashOpaqueValue(sessionId), endedAt: null },
    data: { endedAt: clock.now() },
  });
}

/** A cookie's value in a Cookie header (the first, when it is there more than once). */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | undefined {
  return readCookies(cookieHeader, name)[0];
}

/**
 * Every value a Cookie header gives `name`: a page on another port (or path) of the host can set a
 * second cookie of the same name beside the workbench's own, which the browser then sends first.
 */
export function readCookies(cookieHeader: string | null | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      if (value) values.push(value);
    }
  }
  return values.slice(0, 4);
}
