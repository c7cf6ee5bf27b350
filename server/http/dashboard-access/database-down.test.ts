// A shared workbench's dashboard page while the database is out of reach: the session cannot be
// checked, and the answer says so (503, Retry-After, a page that looks again), never a 500.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { createDbClient } from "../../platform/db/client.ts";
import { parseEnv } from "../../platform/env.ts";
import { createLogger } from "../../platform/logger.ts";
import { SigningKeyStore } from "../../platform/signing-keys.ts";
import type { Runtime } from "../../runtime.ts";
import { WORKBENCH_SESSION_COOKIE } from "../../workbench/access/sessions.ts";
import { createDashboardAccess } from "./dashboard-access.ts";

let server: http.Server;
let url: string;
const reachedNext: string[] = [];
// Port 1 on loopback: every connection is refused, as while a database restarts.
const db = createDbClient("postgresql://postgres@127.0.0.1:1/workbench");

beforeAll(async () => {
  const env = parseEnv({ NODE_ENV: "test", WORKBENCH_ACCESS: "shared", PUBLIC_URL: "http://127.0.0.1:9" });
  const clock = new WorkbenchClock();
  const runtime: Runtime = {
    env,
    db,
    databaseUrl: "postgresql://postgres@127.0.0.1:1/workbench",
    clock,
    keys: new SigningKeyStore({ db, clock }),
    logger: createLogger({ level: "silent" }),
    databaseMode: "external",
  };
  const access = createDashboardAccess(runtime);
  server = http.createServer((req, res) => access(req, res, () => reachedNext.push(req.url ?? "")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await db.$disconnect();
});

it("answers a page with a session cookie 503 with Retry-After and a page that looks again", async () => {
  const res = await fetch(`${url}/deliveries`, {
    headers: { cookie: `${WORKBENCH_SESSION_COOKIE}=abc` },
    redirect: "manual",
  });
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  const html = await res.text();
  expect(html).toContain("The database is unavailable");
  expect(html).toContain('http-equiv="refresh"');
  expect(reachedNext).toEqual([]);
});
