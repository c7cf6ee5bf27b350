// Access tokens for inbound API tests, with the claims the token endpoint
// issues (spec, Access tokens; docs/identity.md): iss = AUTH_URL, typ at+jwt, sub = the user for a
// user-context token else the client, client_id, scope, agency_context,
// username, name, email, role; aud = {base_url}/v1 (or what the test asks).
import { mintAccessToken } from "../identity/access-token.ts";
import { inboundApiResource } from "../identity/resources.ts";
import { INBOUND_SCOPES, USERNAME_REQUIRED_SCOPE } from "../identity/scopes.ts";
import type { Runtime } from "../runtime.ts";
import { AGENCY } from "../../prisma/seed.ts";

/** Every inbound scope (identity/scopes.ts): what a token holds unless a test names its own. */
export const ALL_INBOUND_SCOPES: readonly string[] = INBOUND_SCOPES;

export type InboundTokenOptions = {
  clientId?: string;
  /** agency_context; null for a token without agency context. Default North PSAP. */
  agencyId?: string | null;
  /** A seeded username for a user-context token (adds username.required). */
  username?: string;
  scopes?: string[];
  audience?: string | string[];
  lifetimeS?: number;
};

export async function mintInboundToken(runtime: Runtime, options: InboundTokenOptions = {}): Promise<string> {
  const clientId = options.clientId ?? "partner-cad";
  const agencyId = options.agencyId === undefined ? AGENCY.northPsap : options.agencyId;
  const user = options.username ? await runtime.db.user.findFirst({ where: { username: options.username } }) : null;
  if (options.username && !user) throw new Error(`no seeded user ${options.username}`);
  const scopes = [...(options.scopes ?? ALL_INBOUND_SCOPES), ...(user ? [USERNAME_REQUIRED_SCOPE] : [])];
  const { accessToken } = await mintAccessToken({
    keys: runtime.keys,
    clock: runtime.clock,
    issuer: runtime.env.AUTH_URL,
    subject: user?.id ?? clientId,
    audience: options.audience ?? inboundApiResource(runtime.env),
    clientId,
    scope: scopes,
    lifetimeS: options.lifetimeS ?? 3600,
    claims: {
      agency_context: agencyId ?? undefined,
      username: user?.username,
      name: user?.name,
      email: user?.email ?? undefined,
      role: user?.role ?? undefined,
    },
  });
  return accessToken;
}

/** The usual pair: North PSAP's dispatcher (user context) and an application token (agency context). */
export async function seededTokens(runtime: Runtime) {
  return {
    north: await mintInboundToken(runtime, { username: "dispatcher.north" }),
    ems: await mintInboundToken(runtime, { username: "dispatcher.ems", agencyId: AGENCY.centralEms }),
    fire: await mintInboundToken(runtime, { username: "dispatcher.fire", agencyId: AGENCY.fireRescue }),
    northApp: await mintInboundToken(runtime),
  };
}
