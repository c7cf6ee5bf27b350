// A workbench process in start-up order: the platform (database, migrations,
// clock), then the background workers — the webhook planner subscribes to
// incident changes among them — and only then the seed of an empty database,
// whose demo incidents are changes like any other and so are planned for the
// seeded integrations. server/main.ts runs it before it serves.
import { bootPlatform } from "./boot.ts";
import type { Env } from "./platform/env.ts";
import type { Logger } from "./platform/logger.ts";
import { setRuntime } from "./runtime.ts";
import { startWorkers } from "./workers.ts";
import { removeEphemeralDataDir } from "./platform/ephemeral-data-dir.ts";

/**
 * What a process does when its database cannot be brought back (an embedded server that will not
 * start again): one line saying why, then exit non-zero, for a supervisor to restart it, instead
 * of living on half-alive (docs/decisions/0055).
 */
export function exitOnDatabaseLost(env: Env, logger: Logger) {
  return (reason: string) => {
    logger.fatal({ reason }, `the workbench stops: ${reason}`);
    const cleanup = env.WORKBENCH_EPHEMERAL ? removeEphemeralDataDir(env.DATA_DIR) : Promise.resolve();
    void cleanup.catch(() => {}).finally(() => process.exit(1));
  };
}

export async function startProcess(options: {
  env: Env;
  logger: Logger;
  databaseUrl?: string;
  onDatabaseLost?: (reason: string) => void;
  /** Attempts at starting a killed embedded server again before the database counts as lost (default 6). */
  restartAttempts?: number;
}) {
  const platform = await bootPlatform(options);
  setRuntime(platform.runtime);
  const workers = await startWorkers(platform.runtime);
  /** Undoes the start: the workers, then the platform (its database included). */
  const stop = async () => {
    await workers.stop();
    await platform.shutdown();
  };
  try {
    await platform.seedIfEmpty();
  } catch (error) {
    await stop();
    throw error;
  }
  return { platform, runtime: platform.runtime, workers, stop };
}
