// The portal's identity session: the cookie holds a random id, the database its
// SHA-256 (a database leak yields no usable session). The cookie is
// non-persistent (no Expires/Max-Age: it ends with the browser, as the spec's
// passwordless sequence requires); the row also ends after 12 hours on the
// workbench clock, or at sign-out.
import type { Clock } from "../platform/clock/clock.ts";
import type { Runtime } from "../runtime.ts";
import { getRuntime } from "../runtime.ts";
import { generateOpaqueValue, hashOpaqueValue } from "./hash-opaque-value.ts";

export const PORTAL_SESSION_COOKIE = "wb_portal_session";
export const PORTAL_SESSION_LIFETIME_MS = 12 * 3600_000;

type Deps = { db: Runtime["db"]; clock: Clock };

export type PortalSession = {
  userId: string;
  username: string;
  name: string;
  email: string | null;
  role: string | null;
  agencyId: string;
  agencyName: string;
  method: string;
  createdAt: Date;
  expiresAt: Date;
};

export async function createPortalSession(
  options: Deps & { userId: string; method: "signin-token" | "password" },
): Promise<string> {
  const deps: Deps = options;
  const id = generateOpaqueValue();
  const now = deps.clock.now();
  await deps.db.portalSession.create({
    data: {
      idHash: hashOpaqueValue(id),
      userId: options.userId,
      method: options.method,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PORTAL_SESSION_LIFETIME_MS),
    },
  });
  return id;
}

/** The live session a cookie value names, or undefined (unknown, ended, expired, or its user may no longer sign in). */
export async function findPortalSession(
  options: Deps & { sessionId: string | undefined },
): Promise<PortalSession | undefined> {
  const deps: Deps = options;
  if (!options.sessionId) return undefined;
  const now = deps.clock.now();
  const row = await deps.db.portalSession.findUnique({ where: { idHash: hashOpaqueValue(options.sessionId) } });
  if (!row || row.endedAt || row.expiresAt <= now) return undefined;
  const user = await deps.db.user.findUnique({ where: { id: row.userId }, include: { agency: true } });
  if (!user?.canSignIn) return undefined;
  return {
    userId: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    role: user.role,
    agencyId: user.agencyId,
    agencyName: user.agency.displayName,
    method: row.method,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

export async function endPortalSession(options: Deps & { sessionId: string | undefined }): Promise<void> {
  const deps: Deps = options;
  if (!options.sessionId) return;
  await deps.db.portalSession.updateMany({
    where: { idHash: hashOpaqueValue(options.sessionId), endedAt: null },
    data: { endedAt: deps.clock.now() },
  });
}

/** The session cookie's value in a Cookie header. */
export function readSessionCookie(cookieHeader: string | null | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === PORTAL_SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** For Next pages (server components): the signed-in portal user of this request, if any. */
export function getPortalSession(headers: Headers): Promise<PortalSession | undefined> {
  return findPortalSession({ ...getRuntime(), sessionId: readSessionCookie(headers.get("cookie")) });
}

/** Set-Cookie attributes: HttpOnly, SameSite=Lax, Secure on https, and no Expires/Max-Age (non-persistent). */
export function sessionCookieOptions(secure: boolean) {
  return { path: "/", httpOnly: true, sameSite: "Lax" as const, secure };
}
