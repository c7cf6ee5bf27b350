// {base_url}/v1: the inbound API (spec section B). Each operation is a
// pipeline of named steps — authenticate → authorize → accept JSON → validate
// (zod, the same schemas that generate /v1/openapi.json) → domain → response —
// and every failure leaves as application/problem+json through one serializer.
import { randomBytes } from "node:crypto";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError, isAppError } from "../../platform/errors.ts";
import { asDatabaseUnavailable, DATABASE_RETRY_AFTER_S } from "../../platform/db/database-unavailable.ts";
import type { Runtime } from "../../runtime.ts";
import { tokenAuthenticator } from "./authenticate.ts";
import type { InboundEnv } from "./inbound-env.ts";
import { buildProblem, problemResponse } from "./problem.ts";
import { registerOperations } from "./operations/register-operations.ts";
import { openApiConfig } from "./operations/openapi-config.ts";
import { requestLogFields } from "../trace-requests.ts";

export function inboundApp(runtime: Runtime) {
  const app = new OpenAPIHono<InboundEnv>({
    // Step "validate": zod issues become ValidationFailed naming each field.
    defaultHook: (result) => {
      if (!result.success) {
        const errors = result.error.issues.flatMap((i) => {
          const at = i.path.map(String);
          // An unknown member is named itself, not its parent object.
          if (i.code === "unrecognized_keys")
            return i.keys.map((k) => ({ field: [...at, k].join("."), message: "unknown member" }));
          return [{ field: at.join(".") || "body", message: i.message }];
        });
        throw new AppError(
          "ValidationFailed",
          `The request is invalid: ${errors.map((e) => e.field).join(", ")}.`,
          errors,
        );
      }
    },
  });

  const authenticate = tokenAuthenticator(runtime);
  app.use("/v1/*", async (c, next) => {
    c.set("authenticate", authenticate);
    await next();
  });
  // Built once, on first request: every route is registered by then.
  let document: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  app.get("/v1/openapi.json", (c) => c.json((document ??= app.getOpenAPI31Document(openApiConfig(runtime.env)))));
  registerOperations(app, runtime);
  app.all("/v1/*", () => {
    throw new AppError("RouteNotFound", "No such operation: see /v1/openapi.json.");
  });

  return app;
}

/**
 * Every /v1 failure as problem+json (the protocol app calls it for an error under /v1). Not the
 * inbound app's own `onError`: Hono runs each handler of a sub-app that has one inside a
 * composition of its own, made on every request; for the ~100 handlers of /v1 that was the default
 * mode's largest allocation site.
 */
export function inboundErrorHandler(runtime: Runtime): ErrorHandler {
  return (error, context) => {
    const c = context as Context<InboundEnv>;
    // Drawn only for a failure: a random draw per request was a getrandom() call on every /v1 request.
    const traceId = randomBytes(8).toString("hex");
    c.set("traceId", traceId);
    const appError = toAppError(error);
    const problem = buildProblem({ baseUrl: runtime.env.BASE_URL, error: appError, instance: c.req.path, traceId });
    if (appError.code === "DatabaseUnavailable")
      runtime.logger.debug({ traceId, path: c.req.path }, "inbound request refused: database unavailable");
    else if (appError.status >= 500)
      runtime.logger.error(
        { err: error, code: appError.code, traceId, path: c.req.path, ...requestLogFields(c) },
        "inbound request failed",
      );
    else
      runtime.logger.info(
        { code: appError.code, status: appError.status, traceId, path: c.req.path, ...requestLogFields(c) },
        "inbound problem",
      );
    return problemResponse(
      c,
      problem,
      appError.code === "AuthenticationRequired"
        ? { "www-authenticate": bearerChallenge(c.req.header("authorization")) }
        : appError.code === "DatabaseUnavailable"
          ? { "retry-after": String(DATABASE_RETRY_AFTER_S) }
          : {},
    );
  };
}

/**
 * RFC 6750 §3.1: a presented token that is not valid here names invalid_token; a request without
 * one gets the bare challenge (the Account API answers the same way).
 */
function bearerChallenge(authorization: string | undefined): string {
  return authorization ? 'Bearer error="invalid_token"' : "Bearer";
}

/** Known failures keep their code; Hono's own 4xx become the matching code; anything else a generic 500 (details only in the log). */
function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const outage = asDatabaseUnavailable(error);
  if (outage) return outage;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new AppError("RequestTooLarge", "The request body is too large.");
    if (error.status === 415) return new AppError("UnsupportedMediaType", "The request body must be application/json.");
    if (error.status === 400)
      return new AppError("ValidationFailed", "The request body could not be read as JSON.", [
        { field: "body", message: "malformed JSON" },
      ]);
  }
  return new AppError("InternalServerError", "The request could not be completed.");
}
