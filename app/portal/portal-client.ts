// The portal's own OAuth client (the seeded public client portal-spa): where its
// authorization request goes and where the code comes back. Shared by /portal and
// /portal/callback so both name the same redirect_uri.
import "server-only";
import { getRuntime } from "@/server/runtime";

export const PORTAL_CLIENT_ID = "portal-spa";
export const PORTAL_SCOPE = "openid profile offline_access";

export function portalClientConfig() {
  const { env } = getRuntime();
  return {
    clientId: PORTAL_CLIENT_ID,
    scope: PORTAL_SCOPE,
    authorizeUrl: `${env.AUTH_URL}/connect/authorize`,
    tokenUrl: `${env.AUTH_URL}/connect/token`,
    redirectUri: `${env.PORTAL_URL}/portal/callback`,
  };
}
export type PortalClientConfig = ReturnType<typeof portalClientConfig>;
