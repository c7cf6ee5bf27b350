// A workbench process without Next, for the database-outage tests: what server/main.ts starts (the
// database, embedded or DATABASE_URL, migrations, the watch, every worker, the seed) and serves
// (the request guard, the protocol surfaces, /api/health and /api/trpc), with a stand-in page for
// every dashboard path. It exits as main.ts does when its database is lost. RESTART_ATTEMPTS: how
// often a killed embedded server is started again before that.
import { parseEnv } from "../../env.ts";
import { createLogger, stdoutDestination } from "../../logger.ts";
import { exitOnDatabaseLost, startProcess } from "../../../start-process.ts";
import { createProtocolApp } from "../../../http/protocol-app.ts";
import { createWorkbenchServer, listenOn, serveOwnOriginInProcess } from "../../../http/create-server.ts";
import { workbenchApiApp } from "../../../http/workbench-api.ts";

const env = parseEnv();
const logger = createLogger({ level: env.LOG_LEVEL, destination: stdoutDestination() });
const started = await startProcess({
  env,
  logger,
  onDatabaseLost: exitOnDatabaseLost(env, logger),
  restartAttempts: process.env.RESTART_ATTEMPTS ? Number(process.env.RESTART_ATTEMPTS) : undefined,
});
const protocolApp = createProtocolApp(started.runtime);
const server = createWorkbenchServer({
  env,
  protocolApp,
  workbenchApiApp: workbenchApiApp(started.runtime),
  nextHandler: (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" }).end("dashboard stand-in");
  },
});
await listenOn(server, env.PORT, env.HOST);
serveOwnOriginInProcess(env, protocolApp);
started.workers.listening();
logger.info({ url: env.PUBLIC_URL }, "headless workbench ready");

const stop = async () => {
  started.workers.closing();
  server.closeAllConnections();
  server.close();
  await started.stop();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
