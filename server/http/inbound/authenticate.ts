// Steps 2 and 3 of every protected pipeline: authenticate the bearer token
// (jose, the identity server's keys, iss, typ at+jwt, exp on the workbench
// clock, aud ∋ {base_url}/v1; verified tokens remembered: verified-token-cache.ts), then authorize the operation: the token context
// of Authentication rule 7 and the scope of workbench-decisions.md.
import { createMiddleware } from "hono/factory";
import { AccessTokenError } from "../../identity/access-token.ts";
import { createVerifiedTokenCache } from "../../identity/verified-token-cache.ts";
import { inboundApiResource } from "../../identity/resources.ts";
import { isUuid } from "../../incidents/db-handle.ts";
import { AppError } from "../../platform/errors.ts";
import type { Runtime } from "../../runtime.ts";
import type { InboundAuth, InboundEnv } from "./inbound-env.ts";

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/i;

/** Step "authenticate": verifies the bearer token and returns who calls. */
export function tokenAuthenticator(runtime: Runtime) {
  const verify = createVerifiedTokenCache({
    keys: runtime.keys,
    clock: runtime.clock,
    issuer: runtime.env.AUTH_URL,
    audience: inboundApiResource(runtime.env),
  });
  return async (authorization: string | undefined): Promise<InboundAuth> => {
    const match = BEARER.exec(authorization ?? "");
    if (!match) throw new AppError("AuthenticationRequired", "A valid bearer access token is required.");
    try {
      const claims = await verify(match[1]!);
      const username = typeof claims.username === "string" ? claims.username : undefined;
      return {
        clientId: claims.client_id,
        scopes: new Set(String(claims.scope).split(" ").filter(Boolean)),
        agencyId: typeof claims.agency_context === "string" ? claims.agency_context : undefined,
        // Rule 7: a user-context token's sub is the user, not the client.
        userId: username && claims.sub && claims.sub !== claims.client_id ? claims.sub : undefined,
        username,
      };
    } catch (e) {
      if (e instanceof AccessTokenError)
        throw new AppError("AuthenticationRequired", `The access token is not valid here (${e.reason}).`);
      throw e;
    }
  };
}

export type Requirement = { context: "agency" | "user"; scope: string };

/**
 * The first steps of every operation: authenticate (401), then rule 7
 * (AgencyContextRequired, then UserContextRequired), then the scope
 * (AuthorizationDenied). Per route, so an unknown path is 404 with or without a token.
 */
export function authorize(requirement: Requirement) {
  return createMiddleware<InboundEnv>(async (c, next) => {
    const auth = await c.get("authenticate")(c.req.header("authorization"));
    c.set("auth", auth);
    if (!auth.agencyId || !isUuid(auth.agencyId))
      throw new AppError(
        "AgencyContextRequired",
        "The token does not identify an agency: request it with agency_context.",
      );
    if (requirement.context === "user" && !auth.userId)
      throw new AppError(
        "UserContextRequired",
        "The token does not identify a user: request it with scope username.required and a username.",
      );
    if (!auth.scopes.has(requirement.scope))
      throw new AppError(
        "AuthorizationDenied",
        `The token does not grant this operation (scope ${requirement.scope} required).`,
      );
    await next();
  });
}
