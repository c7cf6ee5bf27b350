// The token endpoint's wire format for errors: {error, error_description}
// (platform-interface.md, "Token error") with the status of the code's row in the
// error table (401 for invalid_client, 400 otherwise); unexpected errors a generic
// 500 with a traceId, never a stack.
//
// The 401's challenge (RFC 6749 5.2): a client that authenticated with HTTP Basic
// gets `WWW-Authenticate: Basic`; one that sent its secret in the form
// (client_secret_post) gets none, since no HTTP authentication scheme applies. A
// Bearer challenge here made OAuth client libraries retry with a token.
import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { Logger } from "../../platform/logger.ts";
import { isAppError } from "../../platform/errors.ts";
import { oauthCodeOf } from "../../platform/error-codes.ts";
import { asDatabaseUnavailable, DATABASE_RETRY_AFTER_S } from "../../platform/db/database-unavailable.ts";
import { isTooManyAttempts } from "../../identity/guess-throttle.ts";
import { requestLogFields } from "../trace-requests.ts";

export function renderTokenError(c: Context, error: unknown, logger: Logger): Response {
  c.header("cache-control", "no-store");
  const outage = asDatabaseUnavailable(error);
  if (outage) {
    // OAuth's temporarily_unavailable (RFC 6749 4.1.2.1): nothing was issued; try again shortly.
    c.header("retry-after", String(DATABASE_RETRY_AFTER_S));
    return c.json({ error: oauthCodeOf(outage.code), error_description: outage.message }, 503);
  }
  if (isAppError(error)) {
    if (error.status === 401 && usedHttpBasic(c)) c.header("www-authenticate", 'Basic realm="token", charset="UTF-8"');
    if (isTooManyAttempts(error)) c.header("retry-after", String(error.retryAfterS));
    return c.json({ error: error.wireCode, error_description: error.message }, error.status as 400 | 401 | 429);
  }
  const traceId = randomUUID();
  logger.error({ err: error, traceId, path: c.req.path, ...requestLogFields(c) }, "token endpoint failed");
  return c.json(
    { error: "server_error", error_description: `The request could not be completed (traceId ${traceId}).` },
    500,
  );
}

const usedHttpBasic = (c: Context) => /^basic(\s|$)/i.test(c.req.header("authorization") ?? "");
