// A long life on one disk: the default mode (`npm start`'s one process) loaded at half its measured
// capacity for SOAK_MINUTES (default 30) with the workbench clock jumped ahead, receiver faults and
// resends mixed in, on the embedded PostgreSQL 18 (docs/performance.md, "Soak"). Every window
// (SOAK_WINDOW_S, default 30 s) prints the accepted rate and its p99, the server's RSS, the database's
// size beside its pruned and kept tables, the outbox's unfinished deliveries and the oldest one's age,
// and the change-to-recorded p99 of the window's deliveries recorded by its end. At the end: the
// slopes of RSS, p99 and database size per 10 minutes, and the used workbench loaded at 32
// connections unthrottled beside an API-only process on a fresh database (the ratio and p99 the
// default mode is judged by), as at the start. The ceiling: a bare node:http handler in the same run.
//
// Mixed in, spread over the run: four clock jumps of six days (RETENTION_DAYS=14, so the first hours'
// data becomes prunable after the third and the pruner runs under load), a receiver answering 503 for
// 15 s twice, and a resend of an incident every third window. Each window writes to 64 new incidents.
import os from "node:os";
import path from "node:path";
import { rm } from "node:fs/promises";
import pg from "pg";
import { load, printTable, startChild, stopChild, type LoadResult } from "./lib/load.ts";
import { rssMiB, samplePeakRss } from "./lib/process-memory.ts";
import { slope } from "./lib/slope.ts";
import { growHistory } from "./lib/grow-history.ts";
import { openSoakServer, type SoakServer } from "./lib/soak-server.ts";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../server/platform/db/open-database.ts";
import { Prisma } from "../server/platform/db/client.ts";
import { sqlQuery } from "../server/platform/db/sql-transaction.ts";
import { STORAGE_GROUPS } from "../server/workbench/retention/storage-groups.ts";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const WINDOW_S = Number(process.env.SOAK_WINDOW_S ?? 30);
const ROW_S = Number(process.env.BENCH_SECONDS ?? 5);
/** SOAK_GROW=n: after the soak, its history doubled n times in SQL (lib/grow-history.ts), then SOAK_SETTLE_S (default 120) at the soak's rate. */
const GROW = Number(process.env.SOAK_GROW ?? 0);
const SETTLE_S = Number(process.env.SOAK_SETTLE_S ?? 120);
const DAY_MS = 86_400_000;
const MiB = 1024 * 1024;

type Window = {
  minute: number;
  event: string;
  rps: number;
  p99: number;
  non2xx: number;
  rssMiB: number | null;
  dbMiB: number;
  prunedTablesMiB: number;
  keptTablesMiB: number;
  unfinished: number;
  oldestS: number;
  recordedP99: number | null;
  prunedRows: number;
};

export async function run() {
  const basePort = Number(process.env.BENCH_PORT ?? 3210);
  const bare = await startChild(
    "node",
    ["bench/lib/echo-server.mjs"],
    { PORT: String(basePort + 1) },
    `http://127.0.0.1:${basePort + 1}/`,
  );
  const rows: LoadResult[] = [];
  // SOAK_DATA_DIR keeps the cluster after the run; a run on a kept cluster with SOAK_MINUTES=0 measures
  // that used workbench again without a soak (its rows after a short settling window at half capacity).
  const kept = process.env.SOAK_DATA_DIR;
  const dir = kept ? path.resolve(kept) : path.join(os.tmpdir(), `wb-bench-soak-${process.pid}`);
  const port = Number(process.env.EMBEDDED_PG_PORT ?? 5499);
  if (process.env.SOAK_PG_STATS) await preloadStatements(dir, port);
  const cluster = await startEmbeddedPostgres({ dataDir: dir, port, ephemeral: !kept });
  try {
    const body = '{"latitude":59.97,"longitude":10.76}';
    const echo = {
      url: `http://127.0.0.1:${basePort + 1}/`,
      method: "POST" as const,
      body,
      headers: { "content-type": "application/json" },
    };
    rows.push(await load("bare node:http (JSON POST echo)", { ...echo, seconds: ROW_S, cpuOf: bare }));
    const fresh = async (name: string) => {
      if (name !== "soak") await dropDatabase(cluster.url("postgres"), name);
      await ensureDatabase(cluster.url("postgres"), name);
      return cluster.url(name);
    };
    const soak = await openSoakServer("default mode", await fresh("soak"), basePort + 2, {});
    try {
      const apiRow = async (what: string) => {
        const api = await openSoakServer("API-only", await fresh(`api_${what}`), basePort + 4, {
          DELIVERY_WORKERS: "false",
        });
        try {
          return await api.row(`API-only process, fresh database, 64 incidents (${what})`, ROW_S);
        } finally {
          await api.close();
        }
      };
      rows.push(await apiRow("start"));
      const capacity = await withStatements(cluster.url("soak"), "default mode at the start", () =>
        soak.row("default mode, 64 incidents, unthrottled (its capacity)", ROW_S),
      );
      rows.push(capacity);
      const rate = Number(process.env.SOAK_RATE ?? 0) || Math.round(capacity.rps / 2);
      // Growing the history in SQL, the soak before it is the load alone: a pruner run over copies
      // would not be the end of a soak, where nothing more is old.
      const quietWindows = Math.max(1, Math.round((MINUTES * 60) / WINDOW_S));
      const settle = Math.max(1, Math.round(SETTLE_S / WINDOW_S));
      const windows = await soakWindows(soak, rate, MINUTES === 0 ? settle : GROW ? quietWindows : undefined);
      if (GROW) {
        // A used workbench built quickly (lib/grow-history.ts), then settled at the soak's rate.
        await growHistory(cluster.url("soak"), { doublings: GROW, prunedShare: 0.55 });
        windows.push(...(await soakWindows(soak, rate, settle)));
      }
      rows.push(await apiRow("end"));
      rows.push(
        await withStatements(cluster.url("soak"), "default mode after the soak", () =>
          soak.row(`default mode after the soak (${windows.at(-1)?.prunedRows ?? 0} rows pruned), unthrottled`, ROW_S),
        ),
      );
      printTable(
        `Soak: caller/track, 32 connections, ${ROW_S} s rows around a ${MINUTES}-minute soak`,
        rows,
        verdictOf(rows),
      );
      printWindows(windows, rate);
    } finally {
      await soak.close();
    }
  } finally {
    await stopChild(bare);
    await cluster.stop();
    if (!kept) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * With SOAK_PG_STATS: the statements of `row` by total time (pg_stat_statements, reset before it), with
 * the blocks they read from outside PostgreSQL's buffers, and the cluster's checkpoints, WAL and
 * full-page images over it.
 */
async function withStatements<T>(url: string, label: string, row: () => Promise<T>): Promise<T> {
  if (!process.env.SOAK_PG_STATS) return row();
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const cluster = async () =>
      (
        await c.query(`SELECT (SELECT num_timed + num_requested FROM pg_stat_checkpointer) AS checkpoints,
          (SELECT buffers_written FROM pg_stat_checkpointer) AS ckpt_buffers,
          (SELECT buffers_clean FROM pg_stat_bgwriter) AS bgwriter_buffers,
          (SELECT sum(writes) FROM pg_stat_io WHERE backend_type = 'client backend') AS backend_writes,
          (SELECT sum(reads) FROM pg_stat_io WHERE backend_type = 'client backend') AS backend_reads,
          wal_records, wal_fpi, wal_bytes FROM pg_stat_wal`)
      ).rows[0] as Record<string, string>;
    await c.query("SELECT pg_stat_statements_reset()");
    const before = await cluster();
    const result = await row();
    const after = await cluster();
    const { rows } = await c.query(`SELECT calls, round(total_exec_time::numeric, 0) AS total_ms,
        round(mean_exec_time::numeric, 3) AS mean_ms, round(max_exec_time::numeric, 1) AS max_ms,
        shared_blks_hit AS hit, shared_blks_read AS read, shared_blks_dirtied AS dirtied, shared_blks_written AS written,
        wal_fpi, wal_bytes, left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 110) AS query
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT 14`);
    console.log(`\n## statements, ${label}`);
    console.table(rows);
    console.log(
      `cluster over the row: ${Object.keys(after)
        .map((k) => `${k} +${Number(after[k]) - Number(before[k])}`)
        .join(", ")}`,
    );
    return result;
  } finally {
    await c.end();
  }
}

/** pg_stat_statements and the checkpoint and autovacuum logs, for a diagnosis (SOAK_PG_STATS=1): in force from the next start. */
async function preloadStatements(dir: string, port: number) {
  const first = await startEmbeddedPostgres({ dataDir: dir, port });
  const c = new pg.Client({ connectionString: first.url("postgres") });
  try {
    await c.connect();
    await c.query("ALTER SYSTEM RESET ALL"); // a kept cluster: the last run's SOAK_PG_SET goes
    await c.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
    await c.query("ALTER SYSTEM SET pg_stat_statements.track = 'all'");
    await c.query("ALTER SYSTEM SET log_checkpoints = on");
    await c.query("ALTER SYSTEM SET log_autovacuum_min_duration = 0");
    // SOAK_PG_SET="name=value;…": settings to try on the cluster (ALTER SYSTEM; the start's -c options win).
    for (const setting of (process.env.SOAK_PG_SET ?? "").split(";").filter(Boolean)) {
      const [name, value] = setting.split("=");
      await c.query(`ALTER SYSTEM SET ${name!.trim()} = ${c.escapeLiteral(value!.trim())}`);
    }
  } finally {
    await c.end();
    await first.stop();
  }
}

async function dropDatabase(maintenanceUrl: string, name: string) {
  const c = new pg.Client({ connectionString: maintenanceUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await c.end();
  }
}

/** The soak's windows; `quiet`: that many windows of the load alone (a settling run), no jumps, faults or resends. */
async function soakWindows(soak: SoakServer, rate: number, quiet?: number): Promise<Window[]> {
  const count = quiet ?? Math.max(2, Math.round((MINUTES * 60) / WINDOW_S));
  const at = (share: number) => Math.round(count * share);
  const jumps = new Set(quiet ? [] : [at(0.2), at(0.4), at(0.6), at(0.8)]);
  const faults = new Set(quiet ? [] : [at(0.3), at(0.7)]);
  const windows: Window[] = [];
  const started = Date.now();
  // The outbox's newest id when each window started: a window's deliveries are the ids between two.
  let previous = { from: await idRange(soak), to: await idRange(soak) };
  for (let w = 0; w < count; w++) {
    const events: string[] = [];
    if (jumps.has(w)) {
      const offset = await soak.jump(6 * DAY_MS);
      events.push(`clock +6 d (now +${Math.round(offset / DAY_MS)} d)`);
    }
    if (faults.has(w)) {
      await soak.setFault("north-psap", "http-503", "15s");
      events.push("north-psap 503 for 15 s");
    }
    await soak.renewIncidents();
    if (w % 3 === 2 && !quiet) {
      await soak.resend();
      events.push("resend");
    }
    const endRss = samplePeakRss(soak.server.pid!);
    const row = await soak.row(`window ${w + 1}`, WINDOW_S, rate);
    const peak = endRss();
    const ids = await idRange(soak);
    previous = { from: previous.to, to: ids };
    windows.push({
      minute: Math.round(((Date.now() - started) / 60_000) * 10) / 10,
      event: events.join("; "),
      rps: row.rps,
      p99: row.p99,
      non2xx: row.non2xx + row.errors,
      rssMiB: peak ?? rssMiB(soak.server.pid!),
      ...(await storage(soak)),
      ...(await outbox(soak)),
      recordedP99: await recordedP99(soak, previous.from, previous.to),
    });
    console.log(JSON.stringify(windows.at(-1)));
  }
  return windows;
}

/** The outbox's newest id: a window's deliveries are the ids between two reads. */
async function idRange(soak: SoakServer): Promise<bigint> {
  const [row] = await sqlQuery<{ id: string | null }>(
    soak.db,
    Prisma.sql`SELECT max(id)::text AS id FROM "WebhookDelivery"`,
  );
  return BigInt(row?.id ?? 0);
}

/** Change to recorded, p99 ms, of the deliveries planned in the window just ended: ids in (after, upTo]. */
async function recordedP99(soak: SoakServer, after: bigint, upTo: bigint): Promise<number | null> {
  const [row] = await sqlQuery<{ p99: number | null }>(
    soak.db,
    Prisma.sql`SELECT percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM r."receivedAt" - d."producedAt") * 1000) AS p99
      FROM "WebhookDelivery" d JOIN "ReceiverRecord" r ON r."integrationKey" = d."integrationKey" AND r."dedupeKey" = d."requestId"::text
      WHERE d.id > ${after}::bigint AND d.id <= ${upTo}::bigint`,
  );
  return row?.p99 === null || row?.p99 === undefined ? null : Math.round(row.p99);
}

async function outbox(soak: SoakServer) {
  const [row] = await sqlQuery<{ n: number; oldest: Date | null }>(
    soak.db,
    Prisma.sql`SELECT count(*)::int AS n, min("producedAt") AS oldest FROM "WebhookDelivery" WHERE state IN ('pending', 'delivering')`,
  );
  const now = Date.now() + soak.offsetMs;
  return { unfinished: row?.n ?? 0, oldestS: row?.oldest ? Math.round((now - row.oldest.getTime()) / 100) / 10 : 0 };
}

async function storage(soak: SoakServer) {
  const tables = (policy: "pruned" | "kept") =>
    STORAGE_GROUPS.filter((g) => g.policy === policy).flatMap((g) => g.tables);
  const [row] = await sqlQuery<{ db: string; pruned: string; kept: string; total: unknown }>(
    soak.db,
    Prisma.sql`SELECT pg_database_size(current_database())::text AS db,
      (SELECT sum(pg_total_relation_size(('"' || t || '"')::regclass)) FROM unnest(${tables("pruned")}::text[]) t)::text AS pruned,
      (SELECT sum(pg_total_relation_size(('"' || t || '"')::regclass)) FROM unnest(${tables("kept")}::text[]) t)::text AS kept,
      (SELECT "prunedTotal" FROM "RetentionRun" WHERE id = 1) AS total`,
  );
  const total = (row?.total ?? {}) as Record<string, number>;
  const mib = (v: string | undefined) => Math.round((Number(v ?? 0) / MiB) * 10) / 10;
  return {
    dbMiB: mib(row?.db),
    prunedTablesMiB: mib(row?.pruned),
    keptTablesMiB: mib(row?.kept),
    prunedRows: Object.values(total).reduce((a, b) => a + Number(b), 0),
  };
}

function verdictOf(rows: LoadResult[]): string {
  const [, apiStart, capacity, apiEnd, used] = rows;
  if (!apiStart || !capacity || !apiEnd || !used) return "";
  return [
    `default mode at the start: ${(capacity.rps / apiStart.rps).toFixed(2)} × the API-only row before it, p99 ${capacity.p99} ms`,
    `default mode after the soak (a used workbench): ${(used.rps / apiEnd.rps).toFixed(2)} × the API-only row before it, p99 ${used.p99} ms (target ≥ 0.5 ×, p99 < 50 ms)`,
  ].join("\n");
}

function printWindows(windows: Window[], rate: number) {
  console.log(
    `\n## Soak: the default mode at ${rate} req/s (half its capacity), ${MINUTES} min in ${WINDOW_S} s windows`,
  );
  console.table(
    windows.map((w) => ({
      min: w.minute,
      "req/s": w.rps,
      "p99 ms": w.p99,
      "non-2xx": w.non2xx,
      "RSS MiB": w.rssMiB,
      "DB MiB": w.dbMiB,
      "pruned tables MiB": w.prunedTablesMiB,
      "kept tables MiB": w.keptTablesMiB,
      unfinished: w.unfinished,
      "oldest s": w.oldestS,
      "recorded p99 ms": w.recordedP99,
      "rows pruned": w.prunedRows,
      event: w.event,
    })),
  );
  // The first window is the server settling into the rate (JIT, pools); the slopes are over the rest.
  const settled = windows.slice(1);
  const per10 = (pick: (w: Window) => number | null) =>
    slope(
      settled.filter((w) => pick(w) !== null).map((w) => ({ x: w.minute, y: pick(w)! })),
      10,
    ).toFixed(2);
  console.log(
    `slopes per 10 min (windows 2–${windows.length}): RSS ${per10((w) => w.rssMiB)} MiB, accept p99 ${per10((w) => w.p99)} ms, ` +
      `database ${per10((w) => w.dbMiB)} MiB (pruned tables ${per10((w) => w.prunedTablesMiB)}, kept tables ${per10((w) => w.keptTablesMiB)})`,
  );
  console.log(
    "a jump of the clock expires whatever is still pending (one hour): 'oldest s' reads workbench time; 'rows pruned' is the pruner's total",
  );
}
