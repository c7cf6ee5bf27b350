// Applies prisma/migrations/*/migration.sql at start-up, recording each in
// Prisma's own `_prisma_migrations` table with Prisma's checksum (sha256 of the
// file), so `prisma migrate status` and `prisma migrate deploy` agree with it.
//
// Why not spawn `prisma migrate deploy`: on these offline machines it spends
// ~10 s waiting on the network before doing ~1 s of work, on every start and
// every test run; this runner takes a few milliseconds when nothing is pending.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

/** Prisma's migrate advisory-lock key, so our runner and the CLI never interleave. */
const PRISMA_MIGRATE_LOCK = 72707369;

/**
 * prisma/migrations of this checkout, looked up from this module's folder: the server runs as
 * TypeScript from server/platform/db (tests, `npm run dev`) and compiled from dist/server (`npm start`).
 */
export const MIGRATIONS_DIR = findUp(import.meta.dirname, path.join("prisma", "migrations"));

function findUp(from: string, relative: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error(`${relative} not found above ${from}: run the workbench from its checkout.`);
  }
}

export type MigrationResult = { applied: string[]; alreadyApplied: number };

export async function applyMigrations(databaseUrl: string, migrationsDir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const migrations = await readMigrations(migrationsDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ, "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ, "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const recorded = done.get(m.name);
      if (recorded !== undefined) {
        if (recorded !== m.checksum)
          throw new Error(
            `Migration ${m.name} was edited after it was applied (checksum differs). Add a new migration instead.`,
          );
        continue;
      }
      // One transaction per migration: a failure leaves the database as the previous migration left it.
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at)
           VALUES (gen_random_uuid()::text, $1, clock_timestamp(), $2, 1, clock_timestamp())`,
          [m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(m.name);
    }
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]).catch(() => {});
    await client.end();
  }
}

async function readMigrations(dir: string) {
  const entries = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    entries.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}
