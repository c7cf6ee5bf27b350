// The process-wide services, built once by server/main.ts (or a test) and
// shared with Next's route handlers. Next bundles app/ code separately, so a
// module-level singleton would exist twice; a globalThis slot is the one
// object both sides see.
import type { Logger } from "pino";
import type { WorkbenchClock } from "./platform/clock/clock.ts";
import type { DbClient } from "./platform/db/client.ts";
import type { DatabaseHealth } from "./platform/db/database-watch.ts";
import type { Env } from "./platform/env.ts";
import type { SigningKeyStore } from "./platform/signing-keys.ts";
import { processSingleton } from "./platform/process-singleton.ts";
import type { Worker } from "./platform/worker.ts";

export type Runtime = {
  env: Env;
  db: DbClient;
  databaseUrl: string;
  clock: WorkbenchClock;
  /** The identity server's signing keys (tokens are minted and verified against them). */
  keys: SigningKeyStore;
  logger: Logger;
  /** "embedded" or "external": what the dashboard says it runs on. */
  databaseMode: "embedded" | "external";
  /** The database watch's view (up, down, restarting): /api/health reports it. Absent in tests that build a runtime by hand. */
  databaseHealth?: DatabaseHealth;
};

/** Builds a background worker from the runtime (server/workers.ts lists them). */
export type WorkerFactory = (runtime: Runtime) => Promise<Worker>;

const slot = processSingleton<{ runtime?: Runtime }>("runtime", () => ({}));

export function setRuntime(runtime: Runtime | undefined): void {
  slot.runtime = runtime;
}

export function getRuntime(): Runtime {
  const runtime = slot.runtime;
  if (!runtime)
    throw new Error(
      "The workbench runtime is not started: run the app through server/main.ts (npm start / npm run dev).",
    );
  return runtime;
}
