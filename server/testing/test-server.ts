// A workbench's protocol surfaces on a random port, over a fresh test database:
// for black-box HTTP tests (no Next: the protocol prefixes never reach it). With
// `dashboard: true` it also serves what access control needs without Next: the
// sign-in paths, the shared-mode gate and a stand-in page for every other dashboard path.
// The workbench API (/api/health, /api/trpc) is the real one on every test server, as in main.ts.
import type { AddressInfo } from "node:net";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { advanceClockOffset, saveClockOffset, syncClockFromDatabase } from "../platform/clock/persisted-clock.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
import type { Runtime } from "../runtime.ts";
import { SigningKeyStore } from "../platform/signing-keys.ts";
import { createProtocolApp } from "../http/protocol-app.ts";
import { createWorkbenchServer, serveOwnOriginInProcess, type NodeHandler } from "../http/create-server.ts";
import { workbenchApiApp } from "../http/workbench-api.ts";
import { createListenUpgrade } from "../http/listen/listen-upgrade.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";
import { getRequestListener } from "@hono/node-server";
import { createDashboardAccess } from "../http/dashboard-access/dashboard-access.ts";
import { prepareFirstAdmin, type FirstAdminOutcome } from "../workbench/access/first-admin.ts";
import { callRecorderOf } from "../client-calls/record-calls.ts";

/**
 * Every log line a test server wrote, as raw JSON text and parsed. Also appended to the suite's log
 * folder when the run names one (vitest.config.ts), which scripts/check-suite-logs.mjs reads after
 * the run for secrets and tokens.
 */
export class CapturedLogs extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (SUITE_LOG_FILE) appendFileSync(SUITE_LOG_FILE, chunk);
    done();
  }
  get text(): string {
    return this.lines.join("\n");
  }
  records(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

const SUITE_LOG_FILE = process.env.WORKBENCH_SUITE_LOGS
  ? path.join(process.env.WORKBENCH_SUITE_LOGS, `vitest-${process.pid}.jsonl`)
  : undefined;

export type TestServer = {
  url: string;
  runtime: Runtime;
  database: TestDatabase;
  logs: CapturedLogs;
  /** With `dashboard`: what prepareFirstAdmin printed to the terminal (the setup credential), and its outcome. */
  terminal: string[];
  firstAdmin?: FirstAdminOutcome;
  /**
   * Runs `during` with the workbench clock `ms` ahead, then puts the offset back. The move is stored
   * and announced as a real clock move is: the server re-reads the stored clock every few seconds,
   * so an offset set only in memory would be put back under a slow test, and its undo then set the
   * clock behind.
   */
  withClockAhead: <T>(ms: number, during: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

/** Next's part for access control: a stand-in page for every dashboard path (/api/trpc is the server's own). */
function dashboardStandIn() {
  return getRequestListener(async (request) => {
    const { pathname } = new URL(request.url);
    return new Response(`dashboard page ${pathname}`, { headers: { "content-type": "text/plain" } });
  });
}

/**
 * `dashboard`: the dashboard's access check with a stand-in for Next (the real /api/trpc route);
 * `nextHandler`: any other stand-in for Next (e.g. the tRPC route alone) behind the same request guard.
 */
export async function startTestServer(
  options: { env?: Record<string, string>; dashboard?: boolean; nextHandler?: NodeHandler } = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  const logs = new CapturedLogs();
  const logger = createLogger({ level: "debug", destination: logs });
  const clock = new WorkbenchClock();
  const stopClockSync = await syncClockFromDatabase({ databaseUrl: database.url, db: database.db, clock });

  // PUBLIC_URL must name the port, which exists only once listening: listen first, then build the app.
  let handler:
    ((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void) | undefined;
  const server = (await import("node:http")).createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const env = parseEnv({ NODE_ENV: "test", PUBLIC_URL: url, DATABASE_URL: database.url, ...options.env });
  const keys = new SigningKeyStore({ db: database.db, clock });
  const runtime: Runtime = {
    env,
    db: database.db,
    databaseUrl: database.url,
    clock,
    keys,
    logger,
    databaseMode: database.mode,
  };
  const terminal: string[] = [];
  const firstAdmin = options.dashboard ? await prepareFirstAdmin(runtime, (text) => terminal.push(text)) : undefined;
  const protocolApp = createProtocolApp(runtime);
  const inner = createWorkbenchServer({
    env,
    protocolApp,
    workbenchApiApp: workbenchApiApp(runtime),
    ...(options.dashboard
      ? { nextHandler: dashboardStandIn(), dashboardAccess: createDashboardAccess(runtime) }
      : { nextHandler: options.nextHandler }),
    listenUpgrade: createListenUpgrade(runtime),
  });
  handler = (req, res) => inner.emit("request", req, res);
  server.on("upgrade", (req, socket, head) => inner.emit("upgrade", req, socket, head));
  // As server/main.ts: this process's deliveries to its own embedded receivers stay in-process.
  const stopServingInProcess = serveOwnOriginInProcess(env, protocolApp);

  return {
    url,
    runtime,
    database,
    logs,
    terminal,
    firstAdmin,
    async withClockAhead(ms, during) {
      const before = clock.offsetMs;
      await advanceClockOffset(database.db, clock, ms);
      try {
        return await during();
      } finally {
        await saveClockOffset(database.db, clock, before);
      }
    },
    async close() {
      // What the API calls recorder still holds is written before the database goes.
      await callRecorderOf(runtime).stop();
      stopServingInProcess();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopClockSync();
      await database.drop();
    },
  };
}
