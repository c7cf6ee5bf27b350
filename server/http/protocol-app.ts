// The protocol surfaces on the Node server itself (docs/decisions/0001: a Next route
// handler serves ~1.5k req/s here, the same route in Hono ~42k). One Hono app
// per surface, mounted at its prefix; everything else goes to Next.
import { Hono } from "hono";
import type { Runtime } from "../runtime.ts";
import { requestLogger } from "./request-logger.ts";
import { requestLogFields, traceRequests } from "./trace-requests.ts";
import { activeTracing } from "../platform/tracing/tracing.ts";
import { discoveryApp } from "./identity/discovery.ts";
import { tokenEndpointApp } from "./identity/token-endpoint.ts";
import { authorizeApp } from "./identity/authorize.ts";
import { accountApp } from "./identity/account.ts";
import { receiversApp } from "./reference-receivers/receivers-app.ts";
import { inboundApp, inboundErrorHandler } from "./inbound/inbound-app.ts";
import { recordClientCalls } from "./client-calls/record-client-calls.ts";
import { asDatabaseUnavailable, DATABASE_RETRY_AFTER_S } from "../platform/db/database-unavailable.ts";

/** Paths served by Hono; every other path is Next's. */
export const PROTOCOL_PREFIXES = ["/connect", "/.well-known", "/Account", "/v1", "/receivers"] as const;

/** Whether a path is the prefix itself or under it ("/v1", "/v1/calls"; not "/v10"). */
function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function isProtocolPath(pathname: string): boolean {
  return PROTOCOL_PREFIXES.some((p) => isUnder(pathname, p));
}

export function createProtocolApp(runtime: Runtime) {
  // One error handler, here, for every surface: a sub-app with an `onError` of its own would have
  // each of its handlers wrapped in a composition made per request (see inboundErrorHandler).
  const app = new Hono();
  const inboundErrors = inboundErrorHandler(runtime);
  // Outermost, so the request's log line and everything it causes run inside its span.
  const tracing = activeTracing();
  if (tracing !== null) app.use("*", traceRequests(tracing));
  app.use(
    "*",
    requestLogger(runtime.logger, () => runtime.clock.nowMs()),
  );
  // A partner client's calls to /connect/token, /v1 and /Account: faults applied, calls recorded (docs/api-calls.md).
  app.use("*", recordClientCalls(runtime));
  app.route("/", discoveryApp(runtime));
  app.route("/", tokenEndpointApp(runtime));
  app.route("/", authorizeApp(runtime));
  app.route("/", accountApp(runtime));
  app.route("/receivers", receiversApp(runtime));
  app.route("/", inboundApp(runtime));
  app.notFound((c) =>
    c.json({ error: "not_found", error_description: `No route for ${c.req.method} ${c.req.path}` }, 404),
  );
  app.onError((error, c) => {
    if (isUnder(c.req.path, "/v1")) return inboundErrors(error, c);
    const outage = asDatabaseUnavailable(error);
    if (outage) {
      // /receivers included: a non-200 the sender's retry will fix (platform-interface.md, Delivery rule 4).
      c.header("retry-after", String(DATABASE_RETRY_AFTER_S));
      c.header("cache-control", "no-store");
      return c.json({ error: "temporarily_unavailable", error_description: outage.message }, 503);
    }
    runtime.logger.error({ err: error, path: c.req.path, ...requestLogFields(c) }, "unhandled protocol error");
    return c.json({ error: "server_error", error_description: "The request could not be completed." }, 500);
  });
  return app;
}
