// GET /api/health: the workbench's own health (not a receiver's /health): the process is up and
// its database answers. Part of the workbench API on the Node server (workbench-api.ts), never
// Next's. Open in both access modes; it says nothing a caller could use.
import { Hono } from "hono";
import type { Runtime } from "../runtime.ts";

export const HEALTH_PATH = "/api/health";

export function healthApp(runtime: Pick<Runtime, "db" | "clock" | "databaseMode">) {
  const app = new Hono();
  app.get(HEALTH_PATH, async (c) => {
    const { db, clock, databaseMode } = runtime;
    c.header("cache-control", "no-store");
    try {
      await db.$queryRaw`SELECT 1`;
      return c.json({ status: "ok", database: databaseMode, now: clock.now().toISOString() });
    } catch {
      return c.json({ status: "unavailable", database: databaseMode, reason: "database unreachable" }, 503);
    }
  });
  app.all(HEALTH_PATH, (c) => {
    c.header("allow", "GET, HEAD");
    return c.json({ error: "method_not_allowed", error_description: `${HEALTH_PATH} answers GET and HEAD only.` }, 405);
  });
  return app;
}
