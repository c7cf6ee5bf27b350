// The workbench server (npm start loads it through launch.ts; npm run dev runs
// it): database, migrations, workers, then one HTTP server on one origin: Hono
// for the protocol prefixes, Next for everything else (a Next custom server).
import { parseEnv } from "./platform/env.ts";
import { createLogger, logDestination } from "./platform/logger.ts";
import { createProtocolApp } from "./http/protocol-app.ts";
import {
  createWorkbenchServer,
  drainServer,
  listenOn,
  serveOwnOriginInProcess,
  type NodeHandler,
  type UpgradeHandler,
} from "./http/create-server.ts";
import { workbenchApiApp } from "./http/workbench-api.ts";
import { createListenUpgrade } from "./http/listen/listen-upgrade.ts";
import { exitOnDatabaseLost, startProcess } from "./start-process.ts";
import { removeEphemeralDataDir } from "./platform/ephemeral-data-dir.ts";
import { createDashboardAccess } from "./http/dashboard-access/dashboard-access.ts";
import { prepareFirstAdmin } from "./workbench/access/first-admin.ts";
import { prepareNext } from "./http/next-thread/prepare-next.ts";
import { takeNextThread } from "./http/next-thread/start-next-thread.ts";
import { describeThreadPoolPriority } from "./platform/thread-pool-priority.ts";
import { bothOrUndo } from "./platform/both-or-undo.ts";
import type { Runtime } from "./runtime.ts";
import { startTelemetry } from "./platform/tracing/start-telemetry.ts";
import { metricsAsJson } from "./http/metrics.ts";
import { isPortTaken, type ChildReport } from "./platform/child-report.ts";

const DRAIN_TIMEOUT_MS = 10_000;

// This network reaches only the package registries: no telemetry, no update checks.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";
process.env.CHECKPOINT_DISABLE ??= "1";

// Started by a parent with an IPC channel (`workbench up`, `--ephemeral`): when the parent goes
// away, however it died, the channel closes and this process stops instead of living on. Listened
// for from the start, so a parent lost during boot stops the process once it is up (and one lost
// while the launcher started the thread pool, before this module ran, is seen as not connected).
let parentGone = Boolean(process.send) && !process.connected;
let onParentGone = () => {};
if (process.send)
  process.once("disconnect", () => {
    parentGone = true;
    onParentGone();
  });

async function main() {
  const env = parseEnv();
  const logger = createLogger({ level: env.LOG_LEVEL, destination: logDestination(env) });
  const startedAt = performance.now();
  // OpenTelemetry only with an OTLP endpoint configured (its packages are loaded only then), and
  // before the protocol app is made: it adds the request spans only when tracing is on.
  let metricsRuntime: Runtime | undefined;
  const telemetry = await startTelemetry(env.TELEMETRY, {
    logger,
    metrics: () => (metricsRuntime ? metricsAsJson(metricsRuntime) : Promise.resolve([])),
    serviceVersion: process.env.npm_package_version,
  });

  const dev = env.NODE_ENV !== "production";
  // Next loads and prepares while the database starts and the workers come up (docs/decisions/0036):
  // built, on a thread of its own (0038); under `npm run dev`, on this one.
  // A database that cannot be brought back ends the process, non-zero (docs/decisions/0055).
  const onDatabaseLost = exitOnDatabaseLost(env, logger);
  const [started, dashboard] = await bothOrUndo(
    startProcess({ env, logger, onDatabaseLost }),
    prepareDashboard(dev, env.PORT),
    {
      undoFirst: (started) => started.stop(),
      undoSecond: (dashboard) => dashboard.stop(),
    },
  );
  const { platform, runtime, workers } = started;
  metricsRuntime = runtime;
  // A failure from here on (the port taken, say) stops what started, the database included.
  const { firstAdmin, server, protocolApp } = await serve(runtime, dashboard).catch(async (error: unknown) => {
    await dashboard.stop();
    await started.stop();
    throw error;
  });
  const stopServingInProcess = serveOwnOriginInProcess(env, protocolApp);
  workers.listening();
  logger.info(
    {
      url: env.PUBLIC_URL,
      database: runtime.databaseMode,
      access: env.ACCESS_MODE,
      firstAdmin,
      threadPool: describeThreadPoolPriority(),
      ms: Math.round(performance.now() - startedAt),
    },
    `Incident Platform Workbench ready on ${env.PUBLIC_URL}`,
  );
  // A parent with an IPC channel (`workbench up`) hears that this process is serving: an answer on
  // the port could come from another process that took it first (start-ephemeral-workbench.ts).
  if (process.connected) process.send?.({ event: "ready" } satisfies ChildReport);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: draining HTTP, stopping workers and the database");
    workers.closing();
    // Stop accepting; idle keep-alive sockets go now, busy ones when their response ends.
    await drainServer(server, {
      forceAfterMs: DRAIN_TIMEOUT_MS,
      onForce: () => logger.warn("drain timed out; closing open connections"),
    });
    await workers.stop();
    stopServingInProcess();
    await dashboard.stop();
    await telemetry.stop();
    await platform.shutdown();
    if (env.WORKBENCH_EPHEMERAL) await removeEphemeralDataDir(env.DATA_DIR);
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  onParentGone = () => void shutdown("parent gone");
  if (parentGone) onParentGone();
}

/** The HTTP server of one origin, listening (docs/decisions/0001, 0032). */
async function serve(runtime: Runtime, dashboard: Dashboard) {
  const { env } = runtime;
  // Shared mode: the configured admin, or a one-time setup credential printed (not logged) below.
  const firstAdmin = await prepareFirstAdmin(runtime);
  const protocolApp = createProtocolApp(runtime);
  const server = createWorkbenchServer({
    env,
    protocolApp,
    workbenchApiApp: workbenchApiApp(runtime),
    nextHandler: await dashboard.serve(runtime),
    dashboardAccess: createDashboardAccess(runtime),
    nextUpgrade: dashboard.upgrade,
    listenUpgrade: createListenUpgrade(runtime),
  });
  await listenOn(server, env.PORT, env.HOST);
  return { firstAdmin, server, protocolApp };
}

type Dashboard = {
  serve: (runtime: Runtime) => Promise<NodeHandler>;
  upgrade?: UpgradeHandler;
  stop: () => Promise<void>;
};

/**
 * Next, prepared. Built, on the dashboard's thread, which the server's handler forwards to (0038).
 * Under `npm run dev` (or this file run from source), on this thread, with its upgrade handler (hot
 * reload's socket).
 */
async function prepareDashboard(dev: boolean, port: number): Promise<Dashboard> {
  if (!dev && import.meta.url.endsWith(".mjs")) {
    // Compiled, this module is dist/server/main.mjs, and the thread's entry is beside it.
    const thread = await takeNextThread(new URL("./next-thread.mjs", import.meta.url));
    return { serve: (runtime) => thread.serve(runtime, runtime.logger), stop: thread.stop };
  }
  const nextApp = await prepareNext(dev, port);
  return {
    serve: async () => nextApp.getRequestHandler(),
    upgrade: nextApp.getUpgradeHandler(),
    stop: async () => {
      await nextApp.close?.();
    },
  };
}

main().catch((error: Error) => {
  // Start-up failures are configuration problems: say what, without a stack.
  console.error(`\nThe workbench could not start: ${error.message}\n`);
  if (process.env.LOG_LEVEL === "debug") console.error(error);
  const dataDir = process.env.DATA_DIR;
  const cleanup =
    process.env.WORKBENCH_EPHEMERAL === "true" && dataDir ? removeEphemeralDataDir(dataDir) : Promise.resolve();
  // A parent that picked the ports (`workbench up`) may try others when one was taken meanwhile.
  const told = new Promise<void>((resolve) => {
    if (!process.connected || !process.send) return resolve();
    process.send({ event: "failed", portTaken: isPortTaken(error) } satisfies ChildReport, undefined, {}, () =>
      resolve(),
    );
  });
  void Promise.all([cleanup, told]).finally(() => process.exit(1));
});
