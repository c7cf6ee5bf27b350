import type { MiddlewareHandler } from "hono";
import type { Logger } from "../platform/logger.ts";

/**
 * One log line per protocol request: method, path (never the query string: sign-in
 * tokens travel there), status and duration. Bodies and headers are never logged.
 */
export function requestLogger(logger: Logger, nowMs: () => number): MiddlewareHandler {
  return async function logRequest(c, next) {
    const started = nowMs();
    await next();
    const traceId = c.get("traceId" as never) as string | undefined;
    logger.info(
      { method: c.req.method, path: c.req.path, status: c.res.status, ms: nowMs() - started, traceId },
      "request",
    );
  };
}
