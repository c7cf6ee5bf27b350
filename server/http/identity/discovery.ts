// {auth_url}/.well-known: the discovery document and its JWKS. The signing keys
// and the token endpoint arrive with the identity issue; until then the JWKS is
// empty, which is still a valid document, so tooling can tell the server is up.
import { Hono } from "hono";
import type { Env } from "../../platform/env.ts";

export function discoveryApp(env: Env) {
  const app = new Hono();
  const issuer = env.AUTH_URL;

  app.get("/.well-known/openid-configuration", (c) =>
    c.json({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      token_endpoint: `${issuer}/connect/token`,
      grant_types_supported: ["client_credentials"],
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
    }),
  );
  app.get("/.well-known/jwks.json", (c) => c.json({ keys: [] }));
  return app;
}
