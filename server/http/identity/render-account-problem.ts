// The Account API's wire format for errors: the problem object of the spec
// (type, title, status, detail, instance, code, traceId, errors) as
// application/problem+json, with the codes of "GetUserSigninToken errors".
// Unexpected errors: 500 InternalServerError with a traceId, never a stack.
import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import type { Logger } from "../../platform/logger.ts";
import { isAppError } from "../../platform/errors.ts";
import { problemCodeOf } from "../../platform/error-codes.ts";
import { asDatabaseUnavailable, DATABASE_RETRY_AFTER_S } from "../../platform/db/database-unavailable.ts";
import { requestLogFields } from "../trace-requests.ts";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function renderAccountProblem(
  c: Context,
  thrown: unknown,
  options: { logger: Logger; errorTypeBase: string },
): Response {
  const traceId = randomUUID();
  const error = asDatabaseUnavailable(thrown) ?? thrown;
  const known = isAppError(error);
  if (known && error.code === "DatabaseUnavailable") c.header("retry-after", String(DATABASE_RETRY_AFTER_S));
  if (!known)
    options.logger.error({ err: error, traceId, path: c.req.path, ...requestLogFields(c) }, "Account API failed");
  const status = known ? error.status : 500;
  // A database outage is the spec's InternalServerError, with its own 503 and Retry-After (decision 0064).
  const code = known ? problemCodeOf(error.code) : "InternalServerError";
  const body = {
    type: `${options.errorTypeBase}/${code}`,
    title: TITLES[status] ?? "Error",
    status,
    detail: known ? error.message : "The request could not be completed.",
    instance: c.req.path,
    code,
    traceId,
    ...(known && error.errors ? { errors: error.errors } : {}),
  };
  // RFC 6750 §3.1: a presented token that is not valid here names invalid_token; a request
  // without one gets the bare challenge. Same wording as /v1's.
  if (status === 401)
    c.header(
      "www-authenticate",
      c.req.header("authorization") ? 'Bearer realm="Account", error="invalid_token"' : 'Bearer realm="Account"',
    );
  return c.body(JSON.stringify(body), status as 400, { "content-type": "application/problem+json" });
}
