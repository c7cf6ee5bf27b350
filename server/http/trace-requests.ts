// A SERVER span for every protocol request (/connect, /.well-known, /Account, /v1, /receivers) when
// tracing is on (docs/observability.md, "Traces"), with the HTTP semantic conventions' stable
// attributes: http.request.method, url.path, http.route (the matched route's template, as the
// metrics write it), http.response.status_code. A caller's W3C traceparent makes it the parent: a
// partner's trace continues here, and a delivery to an embedded receiver (in-process or not) lands
// under its attempt. The span is kept on the request's context (no implicit context: decision 0054):
// the request log line carries its ids, and the operations hand it to the domain as the parent of
// the incident change (`trace` of applyIncidentChange). Installed only with tracing on
// (protocol-app.ts): off, not even a middleware is added.
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { traceLogFields, type TraceContext, type TraceSpan, type Tracing } from "../platform/tracing/tracing.ts";
import { KNOWN_METHODS, routeTemplate } from "./request-metrics.ts";

const SPAN_KEY = "traceSpan" as never;

/** The request's span; undefined when tracing is off. */
export const requestSpan = (c: Context): TraceSpan | undefined => c.get(SPAN_KEY) as TraceSpan | undefined;
/** The request's span as the parent of the work it causes; undefined when tracing is off. */
export const requestTrace = (c: Context): TraceContext | undefined => requestSpan(c)?.context;

/** The request's span as a W3C traceparent, for work that runs after it (a processing batch); undefined when off. */
export const requestTraceparent = (c: Context): string | undefined => requestSpan(c)?.traceparent;
/**
 * A log line's `trace_id` and `span_id` of the request's span (spread into the line's fields); undefined
 * when tracing is off, so the line is as before.
 */
export function requestLogFields(c: Context): { trace_id: string; span_id: string } | undefined {
  const span = requestSpan(c);
  return span === undefined ? undefined : traceLogFields(span);
}

export function traceRequests(tracing: Tracing): MiddlewareHandler {
  return async function traceRequest(c, next) {
    const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "_OTHER";
    // The conventions' required attributes and url.path; no parse of the URL per request (url.scheme and
    // server.address are the collector's resource to tell, and the same for every span of a process).
    const span = tracing.startSpan(method, {
      kind: "server",
      parent: tracing.extract((name) => c.req.header(name)),
      attributes: { "http.request.method": method, "url.path": c.req.path },
    });
    c.set(SPAN_KEY, span as never);
    try {
      await next();
    } finally {
      const route = routeTemplate(routePath(c));
      const status = c.res.status;
      span.rename(`${method} ${route}`);
      span.setAttributes({ "http.route": route, "http.response.status_code": status });
      // Server spans: only a 5xx is the server's error (the conventions' "Status").
      if (status >= 500) span.fail(`HTTP ${status}`);
      span.end();
    }
  };
}
