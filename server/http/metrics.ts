// GET /api/metrics: the process's metrics in the Prometheus text format (docs/observability.md).
// Who may scrape: as for /api/trpc (server/workbench/access/resolve-caller.ts): in local mode anyone
// who reaches the workbench (the guard admits only its own Host names); in shared mode a member's
// session or an API token (`Authorization: Bearer wbt_…`) of any role, viewer included. No caller:
// 401 in the workbench API's {error, error_description} shape.
//
// The counters and histograms are this process's own (server/platform/metrics/registry.ts); the
// lane backlog is read from the database at scrape time, by a gauge of a registry made for the
// scrape: its collect() queries the runtime's own database, however many runtimes share the process
// (as the tests' servers do).
import { Hono } from "hono";
import { Gauge, Registry } from "prom-client";
import { metricsRegistry } from "../platform/metrics/registry.ts";
import type { Runtime } from "../runtime.ts";
import { countLaneBacklog } from "../webhooks/admin/count-lane-backlog.ts";
import { describeRefusal, resolveCaller } from "../workbench/access/resolve-caller.ts";

export const METRICS_PATH = "/api/metrics";

function backlogRegistry(runtime: Pick<Runtime, "db">): Registry {
  const registry = new Registry();
  new Gauge({
    name: "workbench_lane_backlog",
    help: "Events waiting per integration (pending or being delivered), database-wide.",
    labelNames: ["integration"] as const,
    registers: [registry],
    async collect() {
      for (const { integration, waiting } of await countLaneBacklog(runtime.db)) this.set({ integration }, waiting);
    },
  });
  return registry;
}

async function renderMetrics(runtime: Pick<Runtime, "db">): Promise<string> {
  const [own, backlog] = await Promise.all([metricsRegistry().metrics(), backlogRegistry(runtime).metrics()]);
  return `${own}\n${backlog}`;
}

/** The same metrics as prom-client's JSON, for their export over OTLP (platform/tracing/prom-metric-producer.ts). */
export async function metricsAsJson(runtime: Pick<Runtime, "db">) {
  const [own, backlog] = await Promise.all([
    metricsRegistry().getMetricsAsJSON(),
    backlogRegistry(runtime).getMetricsAsJSON(),
  ]);
  return [...own, ...backlog];
}

export function metricsApp(runtime: Pick<Runtime, "db" | "clock" | "env" | "logger">) {
  const app = new Hono();
  app.get(METRICS_PATH, async function scrapeMetrics(c) {
    c.header("cache-control", "no-store");
    const resolution = await resolveCaller(runtime, c.req.raw.headers);
    if ("refused" in resolution) {
      c.header("www-authenticate", 'Bearer realm="workbench"');
      return c.json({ error: "unauthorized", error_description: describeRefusal(resolution.refused) }, 401);
    }
    try {
      return c.body(await renderMetrics(runtime), 200, { "content-type": metricsRegistry().contentType });
    } catch (error) {
      runtime.logger.error({ err: error }, "metrics could not be collected");
      return c.json({ error: "unavailable", error_description: "The metrics could not be collected." }, 503);
    }
  });
  app.all(METRICS_PATH, (c) => {
    c.header("allow", "GET, HEAD");
    return c.json(
      { error: "method_not_allowed", error_description: `${METRICS_PATH} answers GET and HEAD only.` },
      405,
    );
  });
  return app;
}
