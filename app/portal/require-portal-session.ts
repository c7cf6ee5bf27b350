// For portal pages: the signed-in portal user, or a redirect to /portal (which
// offers sign-in) remembering the page in `next`, so a dispatcher who opens an
// openUrl without a session lands on that incident after signing in. The same
// session LoginUserByToken and the login form create.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getPortalSession, type PortalSession } from "@/server/identity/portal-sessions";

export async function requirePortalSession(next?: string): Promise<PortalSession> {
  const session = await getPortalSession(await headers());
  if (!session) redirect(next ? `/portal?next=${encodeURIComponent(next)}` : "/portal");
  return session;
}
