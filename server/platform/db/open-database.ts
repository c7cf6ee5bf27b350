// Where the data lives: DATABASE_URL when set (any PostgreSQL server, shared
// by several app and worker processes), else the workbench's own embedded server.
import pg from "pg";
import type { Env } from "../env.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { claimDataDir } from "./data-dir-owner.ts";
import type { EmbeddedControl } from "./database-watch.ts";

export type OpenDatabase = {
  url: string;
  mode: "embedded" | "external";
  reused: boolean;
  /** The embedded server's postmaster: watched, and started again when killed (database-watch.ts). */
  embedded?: EmbeddedControl;
  stop: () => Promise<void>;
};

const EMBEDDED_DATABASE = "workbench";

export async function openDatabase(env: Env, log: (message: string) => void): Promise<OpenDatabase> {
  if (env.DATABASE_URL) {
    await createExternalDatabaseIfMissing(env.DATABASE_URL, log);
    return { url: env.DATABASE_URL, mode: "external", reused: false, stop: async () => {} };
  }
  const release = await claimDataDir(env.DATA_DIR);
  try {
    const server = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_PG_PORT, log });
    await ensureDatabase(server.url("postgres"), EMBEDDED_DATABASE);
    return {
      url: server.url(EMBEDDED_DATABASE),
      mode: "embedded",
      reused: server.reused,
      embedded: { isRunning: server.isRunning, restart: server.restart },
      stop: async () => {
        await server.stop();
        await release();
      },
    };
  } catch (error) {
    await release();
    throw error;
  }
}

/** `url` with its database replaced by `database` (credentials, host and parameters kept). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** CREATE DATABASE when missing (PostgreSQL has no IF NOT EXISTS for it). */
export async function ensureDatabase(maintenanceUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * `DATABASE_URL=postgresql://…/workbench_dev npm start` on a fresh server should just work:
 * create the named database through the server's `postgres` database when it is missing.
 * Without the right to do so, say what to do instead of failing later in a migration.
 */
async function createExternalDatabaseIfMissing(url: string, log: (message: string) => void): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new Error("DATABASE_URL names no database (postgresql://user@host:port/<database>).");
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000")
      throw new Error(`Cannot reach DATABASE_URL's server: ${(error as Error).message}`, { cause: error });
  } finally {
    await probe.end().catch(() => {});
  }
  try {
    await ensureDatabase(withDatabase(url, "postgres"), name);
    log(`created database "${name}" on the DATABASE_URL server`);
  } catch (error) {
    throw new Error(
      `Database "${name}" does not exist and could not be created (${(error as Error).message}). Create it, or point DATABASE_URL at an existing one.`,
      { cause: error },
    );
  }
}
