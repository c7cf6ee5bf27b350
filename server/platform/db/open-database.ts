// Where the data lives: DATABASE_URL when set (any PostgreSQL server, shared
// by several app and worker processes), else the workbench's own embedded server.
import pg from "pg";
import type { Env } from "../env.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

export type OpenDatabase = { url: string; mode: "embedded" | "external"; reused: boolean; stop: () => Promise<void> };

const EMBEDDED_DATABASE = "workbench";

export async function openDatabase(env: Env, log: (message: string) => void): Promise<OpenDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, mode: "external", reused: false, stop: async () => {} };
  const server = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_PG_PORT, log });
  await ensureDatabase(server.url("postgres"), EMBEDDED_DATABASE);
  return { url: server.url(EMBEDDED_DATABASE), mode: "embedded", reused: server.reused, stop: server.stop };
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
