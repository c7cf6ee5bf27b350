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
import { load, printTable, startChild, stopChild, type LoadResult } from "./lib/load.ts";
import { rssMiB, samplePeakRss } from "./lib/process-memory.ts";
import { slope } from "./lib/slope.ts";
import { openSoakServer, type SoakServer } from "./lib/soak-server.ts";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../server/platform/db/open-database.ts";
import { Prisma } from "../server/platform/db/client.ts";
import { sqlQuery } from "../server/platform/db/sql-transaction.ts";
import { STORAGE_GROUPS } from "../server/workbench/retention/storage-groups.ts";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const WINDOW_S = Number(process.env.SOAK_WINDOW_S ?? 30);
const ROW_S = Number(process.env.BENCH_SECONDS ?? 5);
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
  const dir = path.join(os.tmpdir(), `wb-bench-soak-${process.pid}`);
  const cluster = await startEmbeddedPostgres({
    dataDir: dir,
    port: Number(process.env.EMBEDDED_PG_PORT ?? 5499),
    ephemeral: true,
  });
  try {
    const body = '{"latitude":59.97,"longitude":10.76}';
    const echo = {
      url: `http://127.0.0.1:${basePort + 1}/`,
      method: "POST" as const,
      body,
      headers: { "content-type": "application/json" },
    };
    rows.push(await load("bare node:http (JSON POST echo)", { ...echo, seconds: ROW_S, cpuOf: bare }));
    const fresh = async (name: string) => (await ensureDatabase(cluster.url("postgres"), name), cluster.url(name));
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
      const capacity = await soak.row("default mode, 64 incidents, unthrottled (its capacity)", ROW_S);
      rows.push(capacity);
      const windows = await soakWindows(soak, Math.round(capacity.rps / 2));
      rows.push(await apiRow("end"));
      rows.push(
        await soak.row(
          `default mode after the soak (${windows.at(-1)?.prunedRows ?? 0} rows pruned), unthrottled`,
          ROW_S,
        ),
      );
      printTable(
        `Soak: caller/track, 32 connections, ${ROW_S} s rows around a ${MINUTES}-minute soak`,
        rows,
        verdictOf(rows),
      );
      printWindows(windows, Math.round(capacity.rps / 2));
    } finally {
      await soak.close();
    }
  } finally {
    await stopChild(bare);
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function soakWindows(soak: SoakServer, rate: number): Promise<Window[]> {
  const count = Math.max(2, Math.round((MINUTES * 60) / WINDOW_S));
  const at = (share: number) => Math.round(count * share);
  const jumps = new Set([at(0.2), at(0.4), at(0.6), at(0.8)]);
  const faults = new Set([at(0.3), at(0.7)]);
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
    if (w % 3 === 2) {
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
