// {auth_url}/.well-known: the discovery document and the JWKS it names. Receivers
// fetch and cache the JWKS ("never pin"); rotation keeps a superseded key here
// until its tokens have expired.
import { Hono } from "hono";
import type { Runtime } from "../../platform/runtime.ts";

export function discoveryApp(runtime: Runtime) {
  const app = new Hono();
  const issuer = runtime.env.AUTH_URL;

  app.get("/.well-known/openid-configuration", (c) =>
    c.json({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      token_endpoint: `${issuer}/connect/token`,
      grant_types_supported: ["client_credentials"],
      response_types_supported: ["code"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_post"],
    }),
  );
  app.get("/.well-known/jwks.json", async (c) => {
    c.header("cache-control", "public, max-age=60");
    return c.json(await runtime.keys.jwks());
  });
  return app;
}
