// grant_type=client_credentials: the partner server applications' grant
// (platform-interface.md, Authentication rules 1-4). The steps run in the order
// of the spec's error table: client, scopes, agency context, user context, resource.
import type { Runtime } from "../runtime.ts";
import { mintAccessToken } from "./access-token.ts";
import { authenticateConfidentialClient } from "./authenticate-client.ts";
import { resolveAgencyContext } from "./resolve-agency-context.ts";
import { resolveUserContext } from "./resolve-user-context.ts";
import { selectAudience } from "./select-audience.ts";
import { tokenError } from "./token-errors.ts";
import { parseScopeList, type TTokenRequest, type TTokenResponse } from "./token-request.schema.ts";

type Deps = Pick<Runtime, "db" | "clock" | "keys" | "env">;

export async function issueClientCredentialsToken(
  options: Deps & { request: TTokenRequest; source?: string },
): Promise<TTokenResponse> {
  const { request } = options;
  const deps: Deps = options;
  if (!request.client_id) throw tokenError("InvalidRequest", "client_id is required.");
  if (!request.client_secret) throw tokenError("InvalidRequest", "client_secret is required.");
  const client = await authenticateConfidentialClient({
    db: deps.db,
    clock: deps.clock,
    env: deps.env,
    source: options.source ?? "unknown",
    clientId: request.client_id,
    clientSecret: request.client_secret,
  });
  if (!client.grantTypes.includes("client_credentials"))
    throw tokenError("UnauthorizedClient", "The client may not use client_credentials.");

  const scopes = parseScopeList(request.scope);
  if (scopes.length === 0) throw tokenError("InvalidRequest", "scope is required.");
  const unassigned = scopes.filter((s) => !client.scopes.includes(s));
  if (unassigned.length)
    throw tokenError("InvalidScope", `The client is not assigned the scope(s): ${unassigned.join(" ")}.`);

  const agencyId = resolveAgencyContext({
    agencyContext: request.agency_context,
    psapId: request.psap_id,
    allowedAgencyIds: client.agencies.map((a) => a.agencyId),
  });
  const user = await resolveUserContext({
    db: deps.db,
    clientId: client.id,
    scopes,
    username: request.username,
    agencyId,
  });
  const audience = selectAudience({ scopes, resources: request.resource, env: deps.env });
  // The client holds every scope it asked for (else invalid_scope above: "client not assigned one or
  // more requested scopes"); what is missing is part of the request: username.required alone grants
  // nothing, rule 4 asks for it "plus the business scopes of the operation" -> invalid_request.
  if (audience.length === 0)
    throw tokenError(
      "InvalidRequest",
      "The requested scopes grant no resource: request the business scopes of the operation together with username.required.",
    );

  const { accessToken, expiresIn } = await mintAccessToken({
    keys: deps.keys,
    clock: deps.clock,
    issuer: deps.env.AUTH_URL,
    subject: user?.userId ?? client.id,
    clientId: client.id,
    audience,
    scope: scopes,
    lifetimeS: client.accessTokenLifetimeS,
    claims: {
      agency_context: agencyId,
      username: user?.username,
      name: user?.name,
      email: user?.email ?? undefined,
      role: user?.role ?? undefined,
    },
  });
  return { access_token: accessToken, token_type: "Bearer", expires_in: expiresIn, scope: scopes.join(" ") };
}
