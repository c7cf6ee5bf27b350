// POST {auth_url}/connect/token: parse the form (JSON is refused), pick the grant,
// call the domain, answer the token response or the token error.
import { Hono, type Context } from "hono";
import type { Runtime } from "../../runtime.ts";
import { issueClientCredentialsToken } from "../../identity/issue-client-credentials-token.ts";
import { issueAuthorizationCodeTokens, issueRefreshedTokens } from "../../identity/issue-interactive-tokens.ts";
import { tokenError } from "../../identity/token-errors.ts";
import { ZTokenRequest, type TTokenRequest } from "../../identity/token-request.schema.ts";
import { renderTokenError } from "./render-token-error.ts";
import { remoteAddress } from "../remote-address.ts";
import { limitRequestBody } from "../limit-request-body.ts";
import { recordTokenIssued } from "../../platform/metrics/registry.ts";
import { findUnsafeText } from "../../platform/json-input.ts";

// A Map, not an object: grant_type is the caller's text, and `toString` or
// `constructor` must not find Object.prototype's members (they answered 200 and 500).
const GRANTS = new Map([
  ["client_credentials", issueClientCredentialsToken],
  ["authorization_code", issueAuthorizationCodeTokens],
  ["refresh_token", issueRefreshedTokens],
] as const);
type GrantType = typeof GRANTS extends Map<infer K, unknown> ? K : never;

/** application/x-www-form-urlencoded only; each parameter once, except `resource` (RFC 8707). */
async function parseTokenForm(c: Context): Promise<TTokenRequest> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw tokenError(
      "InvalidRequest",
      "The token endpoint accepts application/x-www-form-urlencoded form fields only.",
    );
  }
  const params = new URLSearchParams(await c.req.text());
  const entries: Array<[string, unknown]> = [["resource", params.getAll("resource")]];
  for (const key of new Set(params.keys())) {
    if (key === "resource") continue;
    const values = params.getAll(key);
    if (values.length > 1)
      throw tokenError("InvalidRequest", `The parameter ${key.slice(0, 64)} must not be repeated.`);
    entries.push([key, values[0]]);
  }
  // Own properties only (a field named __proto__ stays a field); the schema drops unknown ones.
  const fields = Object.fromEntries(entries);
  // Before any value is looked up: NUL and lone surrogates reached the database as a 500.
  const unsafe = findUnsafeText(fields);
  if (unsafe) throw tokenError("InvalidRequest", `The parameter ${unsafe.field.slice(0, 64)} ${unsafe.message}.`);
  const parsed = ZTokenRequest.safeParse(fields);
  if (!parsed.success) throw tokenError("InvalidRequest", "The token request is malformed.");
  return parsed.data;
}

/**
 * Clients authenticate in the form (client_secret_post) or not at all (public
 * PKCE clients), as discovery says. An Authorization header is a method this
 * endpoint does not offer: invalid_client, with a Basic challenge for a Basic one.
 */
function refuseHeaderClientAuthentication(c: Context) {
  if (c.req.header("authorization") === undefined) return;
  throw tokenError(
    "InvalidClient",
    "Client authentication in the Authorization header is not supported: send client_id and client_secret as form fields (client_secret_post).",
  );
}

function selectGrant(request: TTokenRequest) {
  if (!request.grant_type) throw tokenError("InvalidRequest", "grant_type is required.");
  const grantType = request.grant_type as GrantType;
  const grant = GRANTS.get(grantType);
  if (!grant)
    throw tokenError("UnsupportedGrantType", `The grant_type ${request.grant_type.slice(0, 64)} is not supported.`);
  return { grant, grantType };
}

export function tokenEndpointApp(runtime: Runtime) {
  const app = new Hono();
  // A token request is a few hundred bytes; refuse bodies far beyond any legitimate one before reading them.
  // limitRequestBody, not hono's bodyLimit on every request: reading c.req.raw.body built a fetch
  // Request and a web stream per token (8 % of the endpoint's Node CPU).
  const limitBody = limitRequestBody({
    maxBytes: 16 * 1024,
    onTooLarge: (c) => c.json({ error: "invalid_request", error_description: "The request body is too large." }, 413),
  });
  app.post("/connect/token", limitBody, async function handleTokenRequest(c) {
    try {
      refuseHeaderClientAuthentication(c);
      const request = await parseTokenForm(c);
      const { grant, grantType } = selectGrant(request);
      const response = await grant({ ...runtime, request, source: remoteAddress(c) });
      // Counted by grant_type, one of the three above (never the caller's text): docs/observability.md.
      recordTokenIssued(grantType);
      c.header("cache-control", "no-store");
      c.header("pragma", "no-cache");
      return c.json(response);
    } catch (error) {
      return renderTokenError(c, error, runtime.logger);
    }
  });
  return app;
}
