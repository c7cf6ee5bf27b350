// The dashboard's thread in a built workbench (docs/decisions/0038), compiled to
// dist/server/next-thread.mjs. Next prepares here while the main thread starts the database; once
// the main thread says where the database is, this thread joins it with services of its own (the
// pages' tRPC prefetch and route handlers read them through getRuntime) and serves Next on a Unix
// socket that only the main thread's server reaches (start-next-thread.ts). Next's and React's
// async context lives in this thread's V8 isolate: the main thread's promises never pay for it.
import http from "node:http";
import os from "node:os";
import { once } from "node:events";
import { parentPort, workerData } from "node:worker_threads";
import { connectRuntime } from "./boot.ts";
import { parseEnv } from "./platform/env.ts";
import { createLogger, logDestination } from "./platform/logger.ts";
import { setRuntime } from "./runtime.ts";
import { POOL_NICE_INCREMENT } from "./platform/thread-pool-priority.ts";
import { prepareNext } from "./http/next-thread/prepare-next.ts";
import type { FromNextThread, NextThreadData, ToNextThread } from "./http/next-thread/start-next-thread.ts";

const parent = parentPort!;
const { socketPath } = workerData as NextThreadData;
const send = (message: FromNextThread) => parent.postMessage(message);

/** The main thread's next message. */
async function received(): Promise<ToNextThread> {
  const [message] = (await once(parent, "message")) as [ToNextThread];
  return message;
}

async function run() {
  const env = parseEnv();
  const logger = createLogger({ level: env.LOG_LEVEL, destination: logDestination(env), name: "workbench-dashboard" });
  // Below the main thread, as libuv's pool is (docs/decisions/0033): under load, the protocol first.
  lowerThisThread();
  const nextApp = await prepareNext(false, env.PORT);
  send({ type: "prepared" });
  const told = await received();
  if (told.type === "stop") {
    // The process failed to start around this thread: nothing was served.
    await nextApp.close?.();
    send({ type: "stopped" });
    return;
  }
  const { databaseUrl, databaseMode } = told;
  const connected = await connectRuntime({ env, logger, databaseUrl, databaseMode });
  setRuntime(connected.runtime);
  const handle = nextApp.getRequestHandler();
  const server = http.createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  send({ type: "ready" });

  await received(); // stop: the only message once serving
  // The main thread has drained its own server: what is left here are its idle keep-alive connections.
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  await closed;
  await nextApp.close?.();
  setRuntime(undefined);
  await connected.disconnect();
  logger.flush();
  send({ type: "stopped" });
}

function lowerThisThread() {
  try {
    os.setPriority(0, Math.min(19, os.getPriority(0) + POOL_NICE_INCREMENT));
  } catch {
    // a platform without per-thread priorities: the thread runs at the main thread's
  }
}

run().catch((error: unknown) => {
  send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
});
