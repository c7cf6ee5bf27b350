// `npx tsx bench/pg-profile.ts [--build=dist] [--mode=both|default|api] [--one] [--top=15]`: where
// PostgreSQL's work goes per change under `inbound-track`'s load (caller/track, 32 connections over
// 64 incidents, one BENCH_SECONDS row after the usual warm-up; `--one`: its one-incident row
// instead, every change on one incident), by statement and by WAL:
//
// - the server's statements (pg_stat_statements, nested ones too: the foreign-key checks), each
//   with its calls, rows per call, and execution and planning time per change;
// - the WAL the cluster wrote over the row (and, in the default mode, its drain), by record type and
//   by relation (pg_walinspect), in bytes per change, full-page images apart.
//
// It runs on an embedded cluster of its own started with pg_stat_statements preloaded; the bench's
// own queries (tokens, drain, report) run as a role of their own and are left out. `--mode=both`
// runs the API-only process and then the default mode, each on a database of its own: the
// difference is what delivering and recording each change costs PostgreSQL. `--build` takes a copy
// of `dist/` (as inbound-ab does) to profile another build.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { printTable, workbenchEntry } from "./lib/load.ts";
import { openTrack } from "./lib/track-server.ts";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../server/platform/db/open-database.ts";

const { values } = parseArgs({
  options: { build: { type: "string" }, mode: { type: "string" }, one: { type: "boolean" }, top: { type: "string" } },
});
const launcher = path.resolve(values.build ?? "dist", "server", "launch.cjs");
if (!existsSync(launcher)) throw new Error(`pg-profile: no ${launcher} (npm run build)`);
const mode = values.mode ?? "both";
if (!["both", "default", "api"].includes(mode))
  throw new Error(`pg-profile: --mode is both, default or api, not ${mode}`);
const top = Number(values.top ?? 15);
const basePort = Number(process.env.BENCH_PORT ?? 3210);
const BENCH_ROLE = "wb_bench";

const clusterDir = path.join(os.tmpdir(), `wb-pg-profile-${process.pid}`);
const port = Number(process.env.EMBEDDED_PG_PORT ?? 5499);
try {
  await profile();
} finally {
  await rm(clusterDir, { recursive: true, force: true }); // also when the first start failed
}

async function profile() {
  // pg_stat_statements must be preloaded: set on a first start, in force from the second.
  const first = await startEmbeddedPostgres({ dataDir: clusterDir, port });
  try {
    await withClient(first.url("postgres"), async (c) => {
      await c.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
      await c.query("ALTER SYSTEM SET pg_stat_statements.track = 'all'");
      await c.query("ALTER SYSTEM SET pg_stat_statements.track_planning = on");
    });
  } finally {
    await first.stop();
  }
  const cluster = await startEmbeddedPostgres({ dataDir: clusterDir, port, ephemeral: true });
  try {
    const benchPassword = randomBytes(18).toString("base64url");
    await withClient(cluster.url("postgres"), (c) =>
      c.query(`CREATE ROLE ${BENCH_ROLE} LOGIN SUPERUSER PASSWORD ${c.escapeLiteral(benchPassword)}`),
    );
    const modes = mode === "both" ? ["api", "default"] : [mode];
    for (const [i, m] of modes.entries()) {
      const name = `pg_profile_${m}`;
      await ensureDatabase(cluster.url("postgres"), name);
      const serverUrl = cluster.url(name);
      const benchUrl = new URL(serverUrl);
      benchUrl.username = BENCH_ROLE;
      benchUrl.password = benchPassword;
      const label = m === "api" ? "API-only process" : "default mode";
      const track = await openTrack(
        label,
        serverUrl,
        basePort + 2 * i,
        {
          env: { DELIVERY_WORKERS: m === "api" ? "false" : "true" },
          deliveries: m !== "api",
          benchDatabaseUrl: benchUrl.href,
        },
        workbenchEntry(launcher),
      );
      try {
        await withClient(benchUrl.href, async (c) => {
          await c.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
          await c.query("CREATE EXTENSION IF NOT EXISTS pg_walinspect");
          await c.query("SELECT pg_stat_statements_reset()");
          const from = await lsn(c);
          const measured = values.one ? await track.oneIncident() : await track.spread("");
          const to = await lsn(c);
          const load = values.one ? "one incident" : "64 incidents";
          printTable(`pg-profile: ${label}, caller/track, 32 connections over ${load}`, [measured.row]);
          const changes = measured.row.requests;
          await printStatements(c, new URL(serverUrl).username, changes, label);
          await printWal(c, from, to, changes, m === "api" ? label : `${label} (the row and its drain)`);
        });
      } finally {
        await track.close();
      }
    }
  } finally {
    await cluster.stop();
  }
}

async function withClient<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

async function lsn(c: pg.Client): Promise<string> {
  return (await c.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]!.lsn;
}

/** `total` per change, to `decimals` places. */
function perChange(total: number, changes: number, decimals = 1) {
  const scale = 10 ** decimals;
  return Math.round((total / Math.max(1, changes)) * scale) / scale;
}

async function printStatements(c: pg.Client, serverRole: string, changes: number, label: string) {
  const { rows } = await c.query<{
    toplevel: boolean;
    calls: string;
    rows: string;
    exec: number;
    plan: number;
    query: string;
  }>(
    `SELECT s.toplevel, s.calls, s.rows, s.total_exec_time AS exec, s.total_plan_time AS plan, s.query
     FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
     WHERE s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND r.rolname = $1
     ORDER BY s.total_exec_time + s.total_plan_time DESC`,
    [serverRole],
  );
  const total = rows.filter((r) => r.toplevel).reduce((sum, r) => sum + r.exec + r.plan, 0);
  const shown = rows.slice(0, top).map((r) => ({
    statement: describeStatement(r.query, r.toplevel),
    calls: Number(r.calls),
    "rows/call": perChange(Number(r.rows), Number(r.calls)),
    "exec µs/change": perChange(r.exec * 1000, changes),
    "plan µs/change": perChange(r.plan * 1000, changes),
    "% of top-level": r.toplevel ? Math.round((1000 * (r.exec + r.plan)) / total) / 10 : "(inside)",
  }));
  console.log(
    `\n## ${label}: the server's statements, ${changes.toLocaleString("en")} changes; ` +
      `top-level execution and planning ${perChange(total * 1000, changes)} µs per change` +
      (rows.length > top ? ` (${rows.length - top} more statements not shown)` : ""),
  );
  console.table(shown);
}

/** A statement's label: the foreign-key check it is, or the tables it writes and reads. */
function describeStatement(query: string, toplevel: boolean): string {
  const fk = /FROM ONLY "public"\."(\w+)" x WHERE .* FOR KEY SHARE/.exec(query);
  if (!toplevel && fk) return `foreign-key check on ${fk[1]}`;
  const tables = (re: RegExp) => [...new Set([...query.matchAll(re)].map((m) => m[1]!))];
  // Table names are quoted in the server's SQL: an unquoted word after UPDATE is `FOR UPDATE OF d` or `DO UPDATE SET`.
  const writes = tables(/(?:INSERT INTO|UPDATE|DELETE FROM)\s+(?:"public"\.)?"(\w+)"/g);
  const reads = tables(/(?:FROM|JOIN)\s+(?:ONLY\s+)?(?:"public"\.)?"(\w+)"/g).filter((t) => !writes.includes(t));
  const parts = [writes.length ? `writes ${writes.join(", ")}` : "", reads.length ? `reads ${reads.join(", ")}` : ""];
  const text = parts.filter(Boolean).join("; ") || query.replace(/\s+/g, " ").trim();
  return (toplevel ? "" : "(nested) ") + (text.length > 90 ? `${text.slice(0, 89)}…` : text);
}

async function printWal(c: pg.Client, from: string, to: string, changes: number, label: string) {
  const bytes = (await c.query<{ b: number }>("SELECT pg_wal_lsn_diff($2, $1)::float8 AS b", [from, to])).rows[0]!.b;
  const byType = await c.query<{ type: string; count: string; size: number; fpi: number }>(
    `SELECT "resource_manager/record_type" AS type, count, combined_size::float8 AS size, fpi_size::float8 AS fpi
     FROM pg_get_wal_stats($1, $2, true) WHERE count > 0 ORDER BY combined_size DESC`,
    [from, to],
  );
  // A record's first block reference names its relation (a record without one: a commit, a running-xacts note).
  const byRelation = await c.query<{ relation: string; count: string; size: number; fpi: number }>(
    `WITH r AS (
       SELECT (regexp_match(block_ref, 'rel \\d+/\\d+/(\\d+)'))[1]::oid AS node, record_length, fpi_length
       FROM pg_get_wal_records_info($1, $2))
     SELECT coalesce(k.relname, r.node::text, '(none)') AS relation, count(*) AS count,
            sum(r.record_length)::float8 AS size, sum(r.fpi_length)::float8 AS fpi
     FROM r LEFT JOIN pg_class k ON k.relfilenode = r.node
     GROUP BY 1 ORDER BY sum(r.record_length) DESC LIMIT $3`,
    [from, to, top],
  );
  const fpi = byType.rows.reduce((sum, r) => sum + r.fpi, 0);
  console.log(
    `\n## ${label}: WAL ${perChange(bytes, changes, 0)} B per change, of it full-page images ${perChange(fpi, changes, 0)} B`,
  );
  const shape = (r: { count: string; size: number; fpi: number }) => ({
    "records/change": perChange(Number(r.count), changes),
    "B/change": perChange(r.size, changes, 0),
    "of it page images": perChange(r.fpi, changes, 0),
  });
  console.table(byType.rows.slice(0, top).map((r) => ({ "record type": r.type, ...shape(r) })));
  console.table(byRelation.rows.map((r) => ({ relation: r.relation, ...shape(r) })));
}
