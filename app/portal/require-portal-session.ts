// For portal pages that later issues add: the signed-in portal user, or a
// redirect to /portal (which offers sign-in). The same session LoginUserByToken
// and the login form create.
import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getPortalSession, type PortalSession } from "@/server/identity/portal-sessions";

export async function requirePortalSession(): Promise<PortalSession> {
  const session = await getPortalSession(await headers());
  if (!session) redirect("/portal");
  return session;
}
