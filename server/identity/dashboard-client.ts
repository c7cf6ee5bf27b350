// The dashboard signs members in through the workbench's own identity server, with
// the authorization code + PKCE (S256) flow the portal uses: a public client of its
// own whose login form authenticates members instead of dispatchers, and whose
// tokens name the member and role for the dashboard (audience below) only.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";

export const DASHBOARD_CLIENT_ID = "workbench-dashboard";
export const DASHBOARD_CALLBACK_PATH = "/auth/callback";
export const DASHBOARD_SCOPE = "workbench.dashboard";
/** Not a URL any partner API answers to: a dashboard token grants nothing on /v1 or the portal. */
export const DASHBOARD_AUDIENCE = "urn:workbench:dashboard";

/** Made on demand (idempotent), so a seed reset or an older database never lacks it. */
export async function ensureDashboardClient(options: { db: DbClient; clock: Clock }): Promise<void> {
  const fields = {
    displayName: "Workbench dashboard",
    secretHash: null,
    scopes: [DASHBOARD_SCOPE],
    grantTypes: ["authorization_code"],
    redirectUris: [DASHBOARD_CALLBACK_PATH],
    accessTokenLifetimeS: 300,
  };
  await options.db.client.upsert({
    where: { id: DASHBOARD_CLIENT_ID },
    create: { id: DASHBOARD_CLIENT_ID, ...fields, createdAt: options.clock.now() },
    update: fields,
  });
}
