// The databases a bench measures on, one after the other: a fresh database on an embedded
// PostgreSQL cluster of the bench's own (removed after), then, when TEST_DATABASE_URL is set, a fresh
// database on that server (dropped after).
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../../server/platform/db/open-database.ts";

export async function onEachDatabase(
  bench: string,
  measure: (label: "embedded PostgreSQL" | "external PostgreSQL", url: string) => Promise<void>,
): Promise<void> {
  const name = `wb_bench_${bench.replace(/\W/g, "_")}_${process.pid}`;
  const embedded = await startEmbeddedPostgres({
    dataDir: path.resolve(`.data/bench-${bench}`),
    port: Number(process.env.EMBEDDED_PG_PORT ?? 5499),
    ephemeral: true,
  });
  try {
    await ensureDatabase(embedded.url("postgres"), name);
    await measure("embedded PostgreSQL", embedded.url(name));
  } finally {
    await embedded.stop();
  }
  const external = process.env.TEST_DATABASE_URL;
  if (!external) return;
  await ensureDatabase(external, name);
  const url = new URL(external);
  url.pathname = `/${name}`;
  try {
    await measure("external PostgreSQL", url.toString());
  } finally {
    const admin = new pg.Client({ connectionString: external });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
