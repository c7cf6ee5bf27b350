// GET /api/health: the workbench's own health (not a receiver's /health): the process is up and
// its database answers (`ready`), or what the database watch knows of its outage (`databaseState`:
// down, restarting; docs/decisions/0055). Part of the workbench API on the Node server (workbench-api.ts), never
// Next's. Open in both access modes; it says nothing a caller could use.
import { Hono } from "hono";
import type { Runtime } from "../runtime.ts";
import type { DatabaseState } from "../platform/db/database-watch.ts";
import { DATABASE_RETRY_AFTER_S } from "../platform/db/database-unavailable.ts";

export const HEALTH_PATH = "/api/health";

export function healthApp(runtime: Pick<Runtime, "db" | "clock" | "databaseMode" | "databaseHealth">) {
  const app = new Hono();
  app.get(HEALTH_PATH, async (c) => {
    const { db, clock, databaseMode, databaseHealth } = runtime;
    c.header("cache-control", "no-store");
    // `ready`: a load balancer's (or `workbench up`'s) flag. While the database watch knows it is
    // down, the probe answers at once; otherwise it asks the database (bounded by the pool's
    // connect timeout).
    const unavailable = (state: DatabaseState, reason: string) => {
      c.header("retry-after", String(DATABASE_RETRY_AFTER_S));
      const downForMs = databaseHealth?.downSinceMs;
      return c.json(
        {
          status: "unavailable",
          ready: false,
          database: databaseMode,
          databaseState: state,
          reason,
          ...(downForMs === undefined ? {} : { downForS: Math.round((performance.now() - downForMs) / 1000) }),
        },
        503,
      );
    };
    const known = databaseHealth?.state ?? "up";
    if (known !== "up")
      return unavailable(known, known === "restarting" ? "database restarting" : "database unreachable");
    try {
      await db.$queryRaw`SELECT 1`;
      return c.json({
        status: "ok",
        ready: true,
        database: databaseMode,
        databaseState: "up",
        now: clock.now().toISOString(),
      });
    } catch {
      return unavailable("down", "database unreachable");
    }
  });
  app.all(HEALTH_PATH, (c) => {
    c.header("allow", "GET, HEAD");
    return c.json({ error: "method_not_allowed", error_description: `${HEALTH_PATH} answers GET and HEAD only.` }, 405);
  });
  return app;
}
