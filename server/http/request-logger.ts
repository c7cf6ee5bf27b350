import type { MiddlewareHandler } from "hono";
import type { Logger } from "../platform/logger.ts";
import { observeRequest } from "./request-metrics.ts";
import { requestSpan } from "./trace-requests.ts";
import { traceLogFields } from "../platform/tracing/tracing.ts";

/**
 * One log line per protocol request, and its measure in the HTTP duration histogram
 * (request-metrics.ts): method, path (never the query string: sign-in
 * tokens travel there), status, duration and, for a failed /v1 request, the traceId of
 * its problem; with tracing on, the request span's trace_id and span_id (trace-requests.ts).
 * Bodies and headers are never logged.
 *
 * The line is written by a child logger without the redaction paths: they name keys, and
 * none of them is one of this line's, so matching them changed nothing and cost more than
 * twice the rest of the line (two lines per change in the default mode).
 */
export function requestLogger(logger: Logger, nowMs: () => number): MiddlewareHandler {
  const lines = logger.child({}, { redact: [] });
  return async function logRequest(c, next) {
    const started = nowMs();
    await next();
    const traceId = c.get("traceId" as never) as string | undefined;
    const ms = nowMs() - started;
    observeRequest(c, ms);
    const span = requestSpan(c);
    if (span === undefined)
      lines.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms, traceId }, "request");
    else
      lines.info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms, traceId, ...traceLogFields(span) },
        "request",
      );
  };
}
