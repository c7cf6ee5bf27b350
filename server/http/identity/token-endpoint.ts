// POST {auth_url}/connect/token: parse the form (JSON is refused), pick the grant,
// call the domain, answer the token response or the token error.
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Runtime } from "../../platform/runtime.ts";
import { issueClientCredentialsToken } from "../../identity/issue-client-credentials-token.ts";
import { issueAuthorizationCodeTokens, issueRefreshedTokens } from "../../identity/issue-interactive-tokens.ts";
import { tokenError } from "../../identity/token-errors.ts";
import { ZTokenRequest, type TTokenRequest } from "../../identity/token-request.schema.ts";
import { renderTokenError } from "./render-token-error.ts";

const GRANTS = {
  client_credentials: issueClientCredentialsToken,
  authorization_code: issueAuthorizationCodeTokens,
  refresh_token: issueRefreshedTokens,
} as const;

/** application/x-www-form-urlencoded only; each parameter once, except `resource` (RFC 8707). */
async function parseTokenForm(c: Context): Promise<TTokenRequest> {
  const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw tokenError("invalid_request", "The token endpoint accepts application/x-www-form-urlencoded form fields only.");
  }
  const params = new URLSearchParams(await c.req.text());
  const fields: Record<string, unknown> = { resource: params.getAll("resource") };
  for (const key of new Set(params.keys())) {
    if (key === "resource") continue;
    const values = params.getAll(key);
    if (values.length > 1) throw tokenError("invalid_request", `The parameter ${key} must not be repeated.`);
    fields[key] = values[0];
  }
  const parsed = ZTokenRequest.safeParse(fields);
  if (!parsed.success) throw tokenError("invalid_request", "The token request is malformed.");
  return parsed.data;
}

function selectGrant(request: TTokenRequest) {
  if (!request.grant_type) throw tokenError("invalid_request", "grant_type is required.");
  const grant = GRANTS[request.grant_type as keyof typeof GRANTS];
  if (!grant) throw tokenError("unsupported_grant_type", `The grant_type ${request.grant_type} is not supported.`);
  return grant;
}

export function tokenEndpointApp(runtime: Runtime) {
  const app = new Hono();
  // A token request is a few hundred bytes; refuse bodies far beyond any legitimate one before reading them.
  const limitBody = bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.json({ error: "invalid_request", error_description: "The request body is too large." }, 413) });
  app.post("/connect/token", limitBody, async function handleTokenRequest(c) {
    try {
      const request = await parseTokenForm(c);
      const response = await selectGrant(request)({ ...runtime, request });
      c.header("cache-control", "no-store");
      c.header("pragma", "no-cache");
      return c.json(response);
    } catch (error) {
      return renderTokenError(c, error, runtime.logger);
    }
  });
  return app;
}
