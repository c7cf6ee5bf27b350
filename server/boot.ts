// Brings up everything a workbench process needs before it serves: the database
// (embedded or external), migrations, the Prisma client and the shared clock.
// The seed is left to `seedIfEmpty`, which the caller runs once the change
// subscribers (the webhook planner) are listening: seeded earlier, the demo
// incidents' changes reached no planner and got no deliveries
// (server/start-process.ts does it in that order).
import { isDatabaseEmpty, seedDatabase } from "../prisma/seed.ts";
import { WorkbenchClock } from "./platform/clock/clock.ts";
import { syncClockFromDatabase } from "./platform/clock/persisted-clock.ts";
import { applyMigrations } from "./platform/db/apply-migrations.ts";
import { createDbClient } from "./platform/db/client.ts";
import { openDatabase } from "./platform/db/open-database.ts";
import { startDatabaseWatch } from "./platform/db/database-watch.ts";
import { createOutageLog } from "./platform/db/outage-log.ts";
import type { Env } from "./platform/env.ts";
import type { Logger } from "./platform/logger.ts";
import type { Runtime } from "./runtime.ts";
import { SigningKeyStore } from "./platform/signing-keys.ts";

export type BootedPlatform = {
  runtime: Runtime;
  /** Seeds an empty database (SEED_ON_EMPTY): call it after the workers started. */
  seedIfEmpty: () => Promise<boolean>;
  shutdown: () => Promise<void>;
};

export async function bootPlatform(options: {
  env: Env;
  logger: Logger;
  databaseUrl?: string;
  /** The database is gone for good (an embedded server that would not start again): main.ts exits non-zero. */
  onDatabaseLost?: (reason: string) => void;
  restartAttempts?: number;
}): Promise<BootedPlatform> {
  const { env, logger } = options;
  const database = options.databaseUrl
    ? { url: options.databaseUrl, mode: "external" as const, reused: false, stop: async () => {} }
    : await openDatabase(env, (m) => logger.info(m));

  const migrations = await applyMigrations(database.url);
  if (migrations.applied.length) logger.info({ applied: migrations.applied }, "migrations applied");

  const connected = await connectRuntime({ env, logger, databaseUrl: database.url, databaseMode: database.mode });
  const watch = startDatabaseWatch({
    databaseUrl: database.url,
    logger,
    embedded: database.embedded,
    restartAttempts: options.restartAttempts,
    onFatal: options.onDatabaseLost ?? ((reason) => logger.error({ reason }, "the database is lost")),
  });
  const runtime: Runtime = { ...connected.runtime, databaseHealth: watch };
  await runtime.keys.current(); // creates the first signing key of a new database
  return {
    runtime,
    async seedIfEmpty() {
      if (!env.SEED_ON_EMPTY || !(await isDatabaseEmpty(runtime.db))) return false;
      await seedDatabase({ db: runtime.db, clock: runtime.clock, publicUrl: env.PUBLIC_URL });
      logger.info("seeded an empty database");
      return true;
    },
    async shutdown() {
      await watch.stop();
      await connected.disconnect();
      await database.stop();
    },
  };
}

/**
 * The services over a database that is up and migrated: the Prisma client, the clock kept in step
 * with the shared row, the signing keys. bootPlatform's, and the dashboard thread's own
 * (http/next-thread/), which joins the database its process started.
 */
export async function connectRuntime(options: {
  env: Env;
  logger: Logger;
  databaseUrl: string;
  databaseMode: Runtime["databaseMode"];
}): Promise<{ runtime: Runtime; disconnect: () => Promise<void> }> {
  const { env, logger, databaseUrl, databaseMode } = options;
  const db = createDbClient(databaseUrl);
  const clock = new WorkbenchClock();
  // Noted once per outage: the listener's own reconnect (listen-channel.ts) re-reads the row when back.
  const clockOutage = createOutageLog(logger, "clock sync");
  const stopClockSync = await syncClockFromDatabase({
    databaseUrl,
    db,
    clock,
    onError: (err) => void clockOutage.failed(err, "clock sync"),
    onSynced: () => clockOutage.succeeded(),
  }).catch(async (error: unknown) => {
    await db.$disconnect();
    throw error;
  });
  const keys = new SigningKeyStore({ db, clock });
  return {
    runtime: { env, db, databaseUrl, clock, keys, logger, databaseMode },
    async disconnect() {
      await stopClockSync();
      await db.$disconnect();
    },
  };
}
