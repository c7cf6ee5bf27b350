// The token endpoint's wire format for errors: {error, error_description}
// (platform-interface.md, "Token error"), 401 for invalid_client (with the RFC 6749
// WWW-Authenticate challenge), 400 otherwise; unexpected errors a generic 500
// with a traceId, never a stack.
import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { Logger } from "../../platform/logger.ts";
import { isAppError } from "../../platform/errors.ts";

export function renderTokenError(c: Context, error: unknown, logger: Logger): Response {
  c.header("cache-control", "no-store");
  if (isAppError(error)) {
    if (error.status === 401) c.header("www-authenticate", 'Bearer error="invalid_client"');
    return c.json({ error: error.code, error_description: error.message }, error.status as 400 | 401);
  }
  const traceId = randomUUID();
  logger.error({ err: error, traceId, path: c.req.path }, "token endpoint failed");
  return c.json({ error: "server_error", error_description: `The request could not be completed (traceId ${traceId}).` }, 500);
}
