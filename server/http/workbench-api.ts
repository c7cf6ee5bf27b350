// The workbench's own API on the Node server, beside the protocol surfaces and ahead of Next:
// /api/health (the probe), /api/metrics (Prometheus: metrics.ts) and /api/trpc (the dashboard's and
// the CLI's API). None needs Next: the tRPC route is a plain fetch handler. Served here, they answer
// without Next's request machinery, whose first route turns on async-context tracking for every
// promise in the process (docs/decisions/0032): a headless workbench (probes, the CLI, integrators'
// load tests) never pays it; only a rendered page does.
//
// Who may call: /api/health is open; /api/metrics checks its caller at the door, as /api/trpc's
// procedures do (local mode: anyone; shared mode: a session or an API token, any role); /api/trpc is
// open at the door and every procedure checks its caller (server/api/trpc.ts), in the same way in
// both access modes. The request guard (workbench-guard.ts: Host, same-origin writes, URL and body
// bounds) runs before any of them.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { Hono } from "hono";
import { boundTrpcRequest, isTrpcPath, TRPC_PREFIX } from "../api/bound-trpc-request.ts";
import { appRouter } from "../api/root.ts";
import { createTRPCContext } from "../api/trpc.ts";
import type { Runtime } from "../runtime.ts";
import { HEALTH_PATH, healthApp } from "./health.ts";
import { METRICS_PATH, metricsApp } from "./metrics.ts";
import { measureRequests } from "./request-metrics.ts";

export function isWorkbenchApiPath(pathname: string): boolean {
  return pathname === HEALTH_PATH || pathname === METRICS_PATH || isTrpcPath(pathname);
}

/** One tRPC request: bounds and media type first, so a refused request reaches no procedure. */
async function handleDashboardApi(runtime: Runtime, request: Request): Promise<Response> {
  const { req, refusal } = await boundTrpcRequest(request);
  return fetchRequestHandler({
    endpoint: TRPC_PREFIX,
    req,
    router: appRouter,
    createContext: () => {
      // Thrown as the context, the refusal is rendered in tRPC's error shape once per call.
      if (refusal) throw refusal;
      return createTRPCContext({ headers: req.headers, runtime });
    },
  });
}

export function workbenchApiApp(runtime: Runtime) {
  const app = new Hono();
  app.use(
    "*",
    measureRequests(() => runtime.clock.nowMs()),
  );
  app.route("/", healthApp(runtime));
  app.route("/", metricsApp(runtime));
  const dashboardApi = (c: { req: { raw: Request } }) => handleDashboardApi(runtime, c.req.raw);
  app.all(TRPC_PREFIX, dashboardApi);
  app.all(`${TRPC_PREFIX}/*`, dashboardApi);
  return app;
}
