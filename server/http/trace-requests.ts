// A SERVER span for every protocol request (/connect, /.well-known, /Account, /v1, /receivers) when
// tracing is on (docs/observability.md, "Traces"), with the HTTP semantic conventions' stable
// attributes: http.request.method, url.path, http.route (the matched route's template, as the
// metrics write it), http.response.status_code. A caller's W3C traceparent makes it the parent: a
// partner's trace continues here, and a delivery to an embedded receiver (in-process or not) lands
// under its attempt. The rest of the request runs inside the span: the request log line carries its
// ids, the incident change and its planning are its children. Installed only with tracing on
// (protocol-app.ts): off, not even a middleware is added.
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Tracing } from "../platform/tracing/tracing.ts";
import { KNOWN_METHODS, routeTemplate } from "./request-metrics.ts";

export function traceRequests(tracing: Tracing): MiddlewareHandler {
  return async function traceRequest(c, next) {
    const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "_OTHER";
    const url = new URL(c.req.url);
    const span = tracing.startSpan(method, {
      kind: "server",
      parent: tracing.extract((name) => c.req.header(name)),
      attributes: {
        "http.request.method": method,
        "url.path": c.req.path,
        "url.scheme": url.protocol.slice(0, -1),
        "server.address": url.hostname,
        "user_agent.original": c.req.header("user-agent"),
      },
    });
    try {
      await tracing.withSpan(span, next);
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
