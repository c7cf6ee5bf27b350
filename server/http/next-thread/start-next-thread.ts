// The main thread's handle on the dashboard's thread (next-thread.ts, docs/decisions/0038): starts
// it, tells it where the database is once the process has one, and gives the server a request
// handler that forwards to it. The socket lives in a folder only this OS user may enter, so nothing
// reaches Next around the main thread's guard and dashboard access check.
import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Logger } from "../../platform/logger.ts";
import type { Runtime } from "../../runtime.ts";
import type { NodeHandler } from "../create-server.ts";
import { processSingleton } from "../../platform/process-singleton.ts";
import { isProcessAlive } from "../../platform/process-alive.ts";
import { proxyToSocket } from "./proxy-to-socket.ts";

export type NextThreadData = { socketPath: string };
export type ToNextThread =
  { type: "serve"; databaseUrl: string; databaseMode: Runtime["databaseMode"] } | { type: "stop" };
export type FromNextThread =
  { type: "prepared" } | { type: "ready" } | { type: "stopped" } | { type: "failed"; message: string };

/** The socket folder's name: this prefix, the process's id, then mkdtemp's random part. */
const FOLDER_PREFIX = "workbench-next-";

/** How long a stop waits for the thread to close Next and its connections before ending it. */
const STOP_TIMEOUT_MS = 10_000;

const UNAVAILABLE =
  "The workbench dashboard is not available: its thread stopped (see the server's log). " +
  "The partner API, the identity server and webhook delivery still run.\n";

export type PreparedNextThread = {
  /**
   * Joins the database, starts serving and resolves with the handler that forwards to it. The
   * thread's failures from then on go to `logger`.
   */
  serve: (database: Pick<Runtime, "databaseUrl" | "databaseMode">, logger: Logger) => Promise<NodeHandler>;
  /** Closes Next, the thread's connections and the socket; ends the thread if it does not finish in time. */
  stop: () => Promise<void>;
};

const early = processSingleton<{ thread?: Promise<PreparedNextThread> }>("next-thread", () => ({}));

/**
 * Starts the dashboard's thread before the server's module loads (server/launch.ts): Next prepares
 * while the main thread reads the server. `takeNextThread` hands it over.
 */
export function startNextThreadEarly(entry: URL): void {
  const thread = startNextThread({ entry });
  thread.catch(() => {}); // reported by the server when it takes the thread
  early.thread = thread;
}

/** The thread started early, or a new one from `entry` (the compiled server loaded without its launcher). */
export function takeNextThread(entry: URL): Promise<PreparedNextThread> {
  const thread = early.thread ?? startNextThread({ entry });
  early.thread = undefined;
  return thread;
}

/**
 * Starts the dashboard's thread and resolves once Next is prepared in it. `entry` is the compiled
 * thread (dist/server/next-thread.mjs, beside the compiled server).
 */
export async function startNextThread(options: { entry: URL; stopTimeoutMs?: number }): Promise<PreparedNextThread> {
  await removeStaleSocketFolders();
  const dir = await mkdtemp(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  const socketPath = path.join(dir, "next.sock");
  const data: NextThreadData = { socketPath };
  const worker = new Worker(options.entry, { workerData: data });
  let exited = false;
  let failure: Error | undefined;
  // Set once the thread serves: a failure from then on has no caller to reject, so it is logged.
  let logger: Logger | undefined;
  let stopping = false;
  const waiters = new Set<{ type: FromNextThread["type"]; resolve: () => void; reject: (e: Error) => void }>();
  const fail = (error: Error) => {
    // A stop ends the thread on purpose: only an end before it is worth a line.
    if (!failure && !stopping) logger?.error({ reason: error.message }, "the dashboard thread failed");
    failure ??= error;
    for (const w of waiters) w.reject(failure);
    waiters.clear();
  };
  worker.on("message", (message: FromNextThread) => {
    if (message.type === "failed") return fail(new Error(`the dashboard could not start: ${message.message}`));
    for (const w of waiters)
      if (w.type === message.type) {
        waiters.delete(w);
        w.resolve();
      }
  });
  worker.on("error", fail);
  worker.on("exit", (code) => {
    exited = true;
    fail(new Error(`the dashboard thread ended (exit code ${code})`));
  });
  const received = (type: FromNextThread["type"]) =>
    new Promise<void>((resolve, reject) => {
      if (failure) reject(failure);
      else waiters.add({ type, resolve, reject });
    });
  const post = (message: ToNextThread) => worker.postMessage(message);

  let proxy: ReturnType<typeof proxyToSocket> | undefined;
  const stop = async () => {
    stopping = true;
    proxy?.close();
    if (!exited && !failure) {
      post({ type: "stop" });
      const timeout = new Promise<void>((resolve) =>
        setTimeout(resolve, options.stopTimeoutMs ?? STOP_TIMEOUT_MS).unref(),
      );
      await Promise.race([received("stopped").catch(() => {}), timeout]);
    }
    if (!exited) await worker.terminate();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await received("prepared");
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    async serve(database, serverLogger) {
      post({ type: "serve", databaseUrl: database.databaseUrl, databaseMode: database.databaseMode });
      await received("ready");
      logger = serverLogger;
      proxy = proxyToSocket(socketPath, UNAVAILABLE);
      return proxy.handler;
    },
    stop,
  };
}

/**
 * The socket folders of workbenches that ended without removing theirs (killed with SIGKILL, say),
 * removed: those whose process is gone, owned by this OS user (a shared temporary folder holds other
 * users' too), and real folders, not links. Best effort: a folder that cannot be removed stays.
 */
async function removeStaleSocketFolders(): Promise<void> {
  const owner = process.getuid?.();
  if (owner === undefined) return; // no owner to check folders against: none is removed
  const tmp = os.tmpdir();
  const names = await readdir(tmp).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = name.startsWith(FOLDER_PREFIX) ? /^(\d+)-/.exec(name.slice(FOLDER_PREFIX.length))?.[1] : undefined;
      if (!pid || isProcessAlive(Number(pid))) return;
      const folder = path.join(tmp, name);
      try {
        const info = await lstat(folder);
        if (info.isDirectory() && info.uid === owner) await rm(folder, { recursive: true, force: true });
      } catch {
        // gone meanwhile, or not ours to remove
      }
    }),
  );
}
