// grant_type=authorization_code (PKCE mandatory) and refresh_token, for the
// interactive clients the service configured for them (Authentication rule 8;
// the seeded public client portal-spa). Their access tokens name the user as
// `sub` and have the portal ({portal_url}) as audience: they grant no partner API.
import type { Runtime } from "../runtime.ts";
import { mintAccessToken } from "./access-token.ts";
import { findPublicClient, type ClientRecord } from "./authenticate-client.ts";
import { redeemAuthorizationCode } from "./authorization-codes.ts";
import { createRefreshToken, rotateRefreshToken } from "./refresh-tokens.ts";
import { tokenError } from "./token-errors.ts";
import { DASHBOARD_AUDIENCE, DASHBOARD_CLIENT_ID } from "./dashboard-client.ts";
import type { TTokenRequest, TTokenResponse } from "./token-request.schema.ts";

type Deps = Pick<Runtime, "db" | "clock" | "keys" | "env">;

async function interactiveClient(deps: Deps, request: TTokenRequest, grant: string): Promise<ClientRecord> {
  if (!request.client_id) throw tokenError("InvalidRequest", "client_id is required.");
  const client = await findPublicClient({ db: deps.db, clientId: request.client_id });
  if (!client.grantTypes.includes(grant)) throw tokenError("UnauthorizedClient", `The client may not use ${grant}.`);
  return client;
}

/** The workbench dashboard's own client: the code names a workbench member, the token their role, for the dashboard only. */
async function dashboardTokens(
  deps: Deps,
  client: ClientRecord,
  memberId: string,
  scopes: string[],
): Promise<TTokenResponse> {
  const member = await deps.db.workbenchMember.findUnique({ where: { id: memberId } });
  if (!member || member.disabledAt) throw tokenError("InvalidGrant", "The member of this code may no longer sign in.");
  const { accessToken, expiresIn } = await mintAccessToken({
    keys: deps.keys,
    clock: deps.clock,
    issuer: deps.env.AUTH_URL,
    subject: member.id,
    clientId: client.id,
    audience: DASHBOARD_AUDIENCE,
    scope: scopes,
    lifetimeS: client.accessTokenLifetimeS,
    claims: { username: member.username, workbench_role: member.role },
  });
  return { access_token: accessToken, token_type: "Bearer", expires_in: expiresIn, scope: scopes.join(" ") };
}

async function tokensFor(
  deps: Deps,
  client: ClientRecord,
  userId: string,
  scopes: string[],
  refreshToken: string,
): Promise<TTokenResponse> {
  const user = await deps.db.user.findUnique({ where: { id: userId } });
  const { accessToken, expiresIn } = await mintAccessToken({
    keys: deps.keys,
    clock: deps.clock,
    issuer: deps.env.AUTH_URL,
    subject: userId,
    clientId: client.id,
    audience: deps.env.PORTAL_URL,
    scope: scopes,
    lifetimeS: client.accessTokenLifetimeS,
    claims: {
      agency_context: user?.agencyId,
      username: user?.username,
      name: user?.name,
      email: user?.email ?? undefined,
      role: user?.role ?? undefined,
    },
  });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: expiresIn,
    scope: scopes.join(" "),
    refresh_token: refreshToken,
  };
}

export async function issueAuthorizationCodeTokens(
  options: Deps & { request: TTokenRequest },
): Promise<TTokenResponse> {
  const { request } = options;
  const deps: Deps = options;
  const client = await interactiveClient(deps, request, "authorization_code");
  if (!request.code || !request.redirect_uri || !request.code_verifier) {
    throw tokenError("InvalidRequest", "code, redirect_uri and code_verifier are required (PKCE is mandatory).");
  }
  const granted = await redeemAuthorizationCode({
    ...deps,
    code: request.code,
    clientId: client.id,
    redirectUri: request.redirect_uri,
    codeVerifier: request.code_verifier,
  });
  // The dashboard keeps its own session (a cookie), so it gets no refresh token.
  if (client.id === DASHBOARD_CLIENT_ID) return dashboardTokens(deps, client, granted.userId, granted.scopes);
  const refreshToken = await createRefreshToken({
    ...deps,
    clientId: client.id,
    userId: granted.userId,
    scopes: granted.scopes,
    familyId: granted.refreshFamilyId,
  });
  return tokensFor(deps, client, granted.userId, granted.scopes, refreshToken);
}

export async function issueRefreshedTokens(options: Deps & { request: TTokenRequest }): Promise<TTokenResponse> {
  const { request } = options;
  const deps: Deps = options;
  const client = await interactiveClient(deps, request, "refresh_token");
  if (!request.refresh_token) throw tokenError("InvalidRequest", "refresh_token is required.");
  const rotated = await rotateRefreshToken({ ...deps, refreshToken: request.refresh_token, clientId: client.id });
  return tokensFor(deps, client, rotated.userId, rotated.scopes, rotated.refreshToken);
}
