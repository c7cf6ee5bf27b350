// http.server.request.duration of the HTTP semantic conventions, in its Prometheus form
// (http_server_request_duration_seconds{http_request_method, http_route, http_response_status_code}),
// for the Hono apps: the protocol surfaces (through the request logger) and the workbench API.
// Labels stay bounded: the method is one of the known ones or _OTHER (as the conventions say), the
// route is the matched route's template ("/v1/incidents/{incidentId}"), never the request's path.
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { recordHttpRequest } from "../platform/metrics/registry.ts";

export const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]);

/** Route templates as the conventions write them, one per route: a handful, made once each. */
const templates = new Map<string, string>();

export function routeTemplate(path: string): string {
  let template = templates.get(path);
  if (template === undefined) {
    template = path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?\??/g, "{$1}");
    templates.set(path, template);
  }
  return template;
}

/** Called once a request's response is known (after `next()`), with its duration. */
export function observeRequest(c: Context, ms: number): void {
  const method = KNOWN_METHODS.has(c.req.method) ? c.req.method : "_OTHER";
  recordHttpRequest(method, routeTemplate(routePath(c)), c.res.status, ms / 1000);
}

/** The same measure for an app without the request logger (the workbench API). */
export function measureRequests(nowMs: () => number): MiddlewareHandler {
  return async function measureRequest(c, next) {
    const started = nowMs();
    await next();
    observeRequest(c, nowMs() - started);
  };
}
