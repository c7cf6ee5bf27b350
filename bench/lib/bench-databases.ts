// The databases a bench measures on, one after the other: a fresh database on an embedded
// PostgreSQL cluster of the bench's own (removed after), then, when TEST_DATABASE_URL is set, a fresh
// database on that server (dropped after); or that server's alone.
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/platform/db/embedded-postgres.ts";
import { ensureDatabase, withDatabase } from "../../server/platform/db/open-database.ts";

export async function onEachDatabase(
  bench: string,
  measure: (label: "embedded PostgreSQL" | "external PostgreSQL", url: string) => Promise<void>,
): Promise<void> {
  const embedded = await startEmbeddedPostgres({
    dataDir: path.resolve(`.data/bench-${bench}`),
    port: Number(process.env.EMBEDDED_PG_PORT ?? 5499),
    ephemeral: true,
  });
  try {
    const name = databaseName(bench);
    await ensureDatabase(embedded.url("postgres"), name);
    await measure("embedded PostgreSQL", embedded.url(name));
  } finally {
    await embedded.stop();
  }
  await onExternalDatabase(bench, (url) => measure("external PostgreSQL", url));
}

/** A fresh database on TEST_DATABASE_URL's server for `measure`, dropped after; false (nothing run) without it. */
export async function onExternalDatabase(bench: string, measure: (url: string) => Promise<void>): Promise<boolean> {
  const external = process.env.TEST_DATABASE_URL;
  if (!external) return false;
  const name = databaseName(bench);
  await ensureDatabase(external, name);
  try {
    await measure(withDatabase(external, name));
  } finally {
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
  return true;
}

const databaseName = (bench: string) => `wb_bench_${bench.replace(/\W/g, "_")}_${process.pid}`;
