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
}): Promise<BootedPlatform> {
  const { env, logger } = options;
  const database = options.databaseUrl
    ? { url: options.databaseUrl, mode: "external" as const, reused: false, stop: async () => {} }
    : await openDatabase(env, (m) => logger.info(m));

  const migrations = await applyMigrations(database.url);
  if (migrations.applied.length) logger.info({ applied: migrations.applied }, "migrations applied");

  const connected = await connectRuntime({ env, logger, databaseUrl: database.url, databaseMode: database.mode });
  const { runtime } = connected;
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
  const stopClockSync = await syncClockFromDatabase({
    databaseUrl,
    db,
    clock,
    onError: (err) => logger.warn({ err }, "clock sync"),
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
