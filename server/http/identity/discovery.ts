// {auth_url}/.well-known: the discovery document and the JWKS it names. Receivers
// fetch and cache the JWKS ("never pin"); rotation keeps a superseded key here
// until its tokens have expired.
import { Hono } from "hono";
import type { Runtime } from "../../runtime.ts";
import { SCOPE_NAMES } from "../../identity/scopes.ts";

export function discoveryApp(runtime: Runtime) {
  const app = new Hono();
  const issuer = runtime.env.AUTH_URL;

  // Public and meant to be cached, as the JWKS below (the guard's default is no-store).
  app.get("/.well-known/openid-configuration", (c) =>
    c.json(
      {
        issuer,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        token_endpoint: `${issuer}/connect/token`,
        authorization_endpoint: `${issuer}/connect/authorize`,
        grant_types_supported: ["client_credentials", "authorization_code", "refresh_token"],
        response_types_supported: ["code"],
        response_modes_supported: ["query"],
        code_challenge_methods_supported: ["S256"],
        scopes_supported: SCOPE_NAMES,
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        // client_secret_post for partner servers; none for public PKCE clients (portal-spa).
        token_endpoint_auth_methods_supported: ["client_secret_post", "none"],
        // RFC 8707: `resource` narrows aud (invalid_target when no requested scope grants it).
        resource_indicators_supported: true,
      },
      200,
      { "cache-control": "public, max-age=60" },
    ),
  );
  app.get("/.well-known/jwks.json", async (c) => {
    c.header("cache-control", "public, max-age=60");
    return c.json(await runtime.keys.jwks());
  });
  return app;
}
