// POST /v1/incidents/{id}/caller/track through the real entry (server/main.ts:
// Hono + jose verify (remembered per token) + the aggregate's optimistic batch on
// the pg pool: one read of the batch's incidents with the planner's read, then
// their snapshot updates, change records and planned deliveries in one
// statement, apply-change.ts), 32 connections, on the embedded
// PostgreSQL 18 and — when TEST_DATABASE_URL is set — the external one, next to
// a bare node:http handler in the same run. Target: ≥ 2,000 req/s, p99 < 25 ms
// (docs/performance.md).
//
// Load is spread over INCIDENTS incidents (the changes of one incident are
// applied one at a time by design: one per batch, or under its row lock); a
// single-incident row shows that worst case too. The
// API-only process is loaded several times on the same incidents: its later rows
// show whether longer tracks cost more (they did, ~25 %, while the snapshot held
// them; see docs/decisions/0009).
//
// Each row also splits its CPU per request between the server, PostgreSQL and
// the load generator, with the machine's idle share (lib/cpu-split.ts): the
// target needs the three together under 1 ms per request on these 2 cores. And
// the WAL written per request: what the commits flush, where the tail waits.
//
// The default mode: one process doing everything `npm start` does, on
// a database of its own (the API-only rows leave an undelivered outbox behind).
// Its rows are judged against the API-only row run just before each (BENCH_PAIRS
// pairs over 64 incidents, then one incident, right after a dashboard page, and
// with a long history), and by delivery:
// after the load, the outbox is left to drain, then every change accepted in the
// window must have been recorded by the embedded receiver (none lost), in change
// order per incident (none reordered); change-to-recorded p50/p99 is the time
// from the change's acceptance to its record. A last process starts on a database
// seeded with 10,000-position tracks and 100,000 earlier deliveries (lib/seed-history.ts).
import path from "node:path";
import { rm } from "node:fs/promises";
import os from "node:os";
import pg from "pg";
import { load, printTable, startChild, stopChild, type LoadResult } from "./lib/load.ts";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase, withDatabase } from "../server/platform/db/open-database.ts";
import { printDeliveryTable, type DeliveryReport } from "./lib/delivery-report.ts";
import { median } from "./lib/median.ts";
import { INCIDENTS, SECONDS, openTrack, type Measured } from "./lib/track-server.ts";

/** Default-mode rows over the incidents, each right after an API-only row. */
const PAIRS = Math.max(1, Number(process.env.BENCH_PAIRS ?? 3));
/** Each database's pairs, printed last. */
const pairNotes: string[] = [];

export async function run() {
  const basePort = Number(process.env.BENCH_PORT ?? 3210);
  const bare = await startChild(
    "node",
    ["bench/lib/echo-server.mjs"],
    { PORT: String(basePort + 1) },
    `http://127.0.0.1:${basePort + 1}/`,
  );
  const rows: LoadResult[] = [];
  const deliveries: DeliveryReport[] = [];
  const notes: string[] = [];
  try {
    rows.push(
      await load("bare node:http (JSON POST echo)", {
        url: `http://127.0.0.1:${basePort + 1}/`,
        method: "POST",
        body: '{"latitude":59.97,"longitude":10.76}',
        headers: { "content-type": "application/json" },
        seconds: SECONDS,
        cpuOf: bare,
      }),
    );

    // Ephemeral removes the cluster (<dataDir>/pg); the folder around it goes after the stop.
    const embeddedDir = path.join(os.tmpdir(), `wb-bench-inbound-${process.pid}`);
    const embedded = await startEmbeddedPostgres({
      dataDir: embeddedDir,
      port: Number(process.env.EMBEDDED_PG_PORT ?? 5499),
      ephemeral: true,
    });
    try {
      const fresh = async (name: string) => {
        await ensureDatabase(embedded.url("postgres"), name);
        return embedded.url(name);
      };
      const measured = await measure("embedded PostgreSQL 18", fresh, basePort + 2);
      rows.push(...measured.rows);
      deliveries.push(...measured.deliveries);
    } finally {
      await embedded.stop();
      await rm(embeddedDir, { recursive: true, force: true });
    }

    if (process.env.TEST_DATABASE_URL) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      const version = (await admin.query("SHOW server_version")).rows[0].server_version as string;
      const created: string[] = [];
      try {
        const fresh = async (suffix: string) => {
          const name = `wb_bench_${process.pid}_${suffix}`;
          await admin.query(`CREATE DATABASE "${name}"`);
          created.push(name);
          return withDatabase(process.env.TEST_DATABASE_URL!, name);
        };
        const measured = await measure(`external PostgreSQL ${version.split(" ")[0]}`, fresh, basePort + 6);
        rows.push(...measured.rows);
        deliveries.push(...measured.deliveries);
      } finally {
        for (const name of created) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    } else {
      notes.push("external PostgreSQL: skipped (set TEST_DATABASE_URL)");
    }
  } finally {
    if (bare) await stopChild(bare);
  }
  const cores = os.availableParallelism();
  printTable(
    `POST /v1/incidents/{id}/caller/track, 32 connections, ${SECONDS} s each`,
    rows,
    [
      `target: ≥ 2,000 req/s with p99 < 25 ms (the load generator shares the ${cores} cores: 2,000 req/s leaves ${cores / 2} ms of CPU per request for the three together)`,
      ...notes,
    ].join("\n"),
  );
  printDeliveryTable(deliveries);
  console.log(pairNotes.join("\n"));
}

async function measure(
  label: string,
  freshDatabase: (name: string) => Promise<string>,
  port: number,
): Promise<{ rows: LoadResult[]; deliveries: DeliveryReport[] }> {
  // API-only (DELIVERY_WORKERS=false): every change still plans its deliveries in the statement
  // that records it; a worker process would send them. The default mode: one process doing
  // everything (the engine delivers each change to the embedded receiver on the same process and
  // cores), on databases of its own, first with short tracks, then with long ones and a long history.
  // Both processes stay up and are loaded in turn, one at a time: each default-mode row runs right
  // after an API-only row and is judged against it, because these machines' speed drifts within
  // minutes (a 5 s row on its own moved by a fifth between runs).
  const api = await openTrack(`${label}, API process`, await freshDatabase("api"), port, {
    env: { DELIVERY_WORKERS: "false" },
  });
  const rows: LoadResult[] = [];
  const deliveries: DeliveryReport[] = [];
  const judged: Judged[] = [];
  /**
   * Keeps a default-mode row beside the API-only row run just before it and judges it (`spread`: over
   * the incidents, where the accept p99 target applies); returns its ratio to it.
   */
  const pair = (apiRow: Measured, allRow: Measured, spread = true): number => {
    const report = allRow.report!;
    rows.push(apiRow.row, allRow.row);
    deliveries.push({ ...report, apiOnlyRps: apiRow.row.rps });
    const ratio = allRow.row.rps / apiRow.row.rps;
    judged.push({
      ratio,
      acceptP99: spread ? allRow.row.p99 : null,
      recordedP99: report.p99,
      lost: report.planned - report.recorded,
      reordered: report.reordered,
    });
    return ratio;
  };
  try {
    const all = await openTrack(`${label}, default mode`, await freshDatabase("all"), port + 2, {
      env: { DELIVERY_WORKERS: "true" },
      deliveries: true,
    });
    try {
      const pairs: number[] = [];
      for (let k = 1; k <= PAIRS; k++)
        pairs.push(pair(await api.spread(` (pair ${k})`), await all.spread(` (pair ${k})`)));
      pair(await api.oneIncident(), await all.oneIncident(), false);
      // A dashboard page served just before the row. The rows above never reach Next (the readiness
      // probe is the server's own). Next renders on its own thread (docs/decisions/0038): the async
      // context it and React enter stays in that thread's V8 isolate, where on the main thread it
      // would have slowed every later promise of the protocol surfaces and the delivery engine.
      pair(await api.spread(" (before the page)"), await all.spread(", after a dashboard page", { page: true }));
      pairs.sort((a, b) => a - b);
      pairNotes.push(
        `${label}, default mode over ${INCIDENTS} incidents: × API-only in ${PAIRS} pair${PAIRS === 1 ? "" : "s"} ${pairs.map((r) => r.toFixed(2)).join(", ")} (median ${median(pairs).toFixed(2)})`,
      );
    } finally {
      await all.close();
    }
    const atSize = await openTrack(`${label}, default mode`, await freshDatabase("size"), port + 2, {
      env: { DELIVERY_WORKERS: "true" },
      deliveries: true,
      history: { positions: 10_000, deliveries: 100_000 },
    });
    try {
      pair(await api.spread(" (before the history row)"), await atSize.spread(""));
    } finally {
      await atSize.close();
    }
    pairNotes.push(verdict(label, judged));
  } finally {
    await api.close();
  }
  return { rows, deliveries };
}

/** A default-mode row against the targets (the accept p99 is judged over 64 incidents only). */
type Judged = { ratio: number; acceptP99: number | null; recordedP99: number | null; lost: number; reordered: number };

/** One line per database: how many default-mode rows met each target, so that runs on other days compare at a glance. */
function verdict(label: string, judged: Judged[]): string {
  const count = (ok: (j: Judged) => boolean, of: Judged[] = judged) => `${of.filter(ok).length}/${of.length}`;
  const spread = judged.filter((j) => j.acceptP99 !== null);
  return (
    `${label}, default mode against the targets: ≥ 0.5 × API-only in ${count((j) => j.ratio >= 0.5)} rows; ` +
    `accept p99 < 50 ms in ${count((j) => j.acceptP99! < 50, spread)} rows over ${INCIDENTS} incidents; ` +
    `recorded within 1 s (p99) in ${count((j) => j.recordedP99 !== null && j.recordedP99 < 1_000)}; ` +
    `lost ${judged.reduce((n, j) => n + j.lost, 0)}, reordered ${judged.reduce((n, j) => n + j.reordered, 0)}`
  );
}
