// POST /v1/incidents/{id}/caller/track through the real entry (server/main.ts:
// Hono + jose verify (remembered per token) + the aggregate's optimistic batch on
// the pg pool: one read of the batch's incidents with the planner's read, then
// their snapshot updates, change records and planned deliveries in one
// statement, apply-change.ts), 32 connections, on the embedded
// PostgreSQL 18 and — when TEST_DATABASE_URL is set — the external one, next to
// a bare node:http handler in the same run. Target (issue 4): ≥ 2,000 req/s, p99 < 25 ms.
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
// The default mode (issue 22): one process doing everything `npm start` does, on
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
import { mkdir, rm } from "node:fs/promises";
import os from "node:os";
import pg from "pg";
import type autocannon from "autocannon";
import { WORKBENCH_ENTRY, load, printTable, startChild, stopChild, type LoadResult } from "./lib/load.ts";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../server/platform/db/open-database.ts";
import { createDbClient } from "../server/platform/db/client.ts";
import { WorkbenchClock } from "../server/platform/clock/clock.ts";
import { SigningKeyStore } from "../server/identity/signing-keys.ts";
import { mintAccessToken } from "../server/identity/access-token.ts";
import { AGENCY, USER } from "../prisma/seed.ts";
import { deliveryReport, printDeliveryTable, type DeliveryReport } from "./lib/delivery-report.ts";
import { seedHistory } from "./lib/seed-history.ts";
import { median } from "./lib/median.ts";

const INCIDENTS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
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
          const url = new URL(process.env.TEST_DATABASE_URL!);
          url.pathname = `/${name}`;
          return url.toString();
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
  /** Keeps a default-mode row beside the API-only row run just before it; returns its ratio to it. */
  const pair = (apiRow: Measured, allRow: Measured): number => {
    rows.push(apiRow.row, allRow.row);
    deliveries.push({ ...allRow.report!, apiOnlyRps: apiRow.row.rps });
    return allRow.row.rps / apiRow.row.rps;
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
      pair(await api.oneIncident(), await all.oneIncident());
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
  } finally {
    await api.close();
  }
  return { rows, deliveries };
}

type TrackRun = {
  env: Record<string, string>;
  /** Wait for the outbox to drain after each row and report its deliveries. */
  deliveries?: boolean;
  /** Seed long tracks and earlier deliveries before the load (lib/seed-history.ts). */
  history?: { positions: number; deliveries: number };
};

type Measured = { row: LoadResult; report?: DeliveryReport };

/**
 * Starts a server on its own database, creates the incidents and warms it up; its rows then run
 * when asked, so that two servers can be loaded in turn. Each keeps a data directory of its own
 * (one workbench per data directory, docs/decisions/0037).
 */
async function openTrack(label: string, databaseUrl: string, port: number, run: TrackRun) {
  const origin = `http://127.0.0.1:${port}`;
  // At the default log level, as `npm start` runs: a line per protocol request (two per change in
  // the default mode), written to a file here (a terminal costs more, /dev/null less).
  const dataDir = `.data/bench-inbound-${port}`;
  await mkdir(dataDir, { recursive: true });
  const server = await startChild(
    ...WORKBENCH_ENTRY,
    {
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: origin,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      ...run.env,
    },
    `${origin}/api/health`,
    { stdoutFile: path.join(dataDir, "server.log") },
  );
  const db = createDbClient(databaseUrl, { poolSize: 2 });
  const close = async () => {
    await db.$disconnect();
    await stopChild(server);
  };
  try {
    const clock = new WorkbenchClock();
    const { accessToken } = await mintAccessToken({
      keys: new SigningKeyStore({ db, clock }),
      clock,
      issuer: origin,
      subject: USER.dispatcherNorth,
      audience: `${origin}/v1`,
      clientId: "partner-cad",
      scope: ["incident.create", "incident.caller.track", "username.required"],
      lifetimeS: 3600,
      claims: {
        agency_context: AGENCY.northPsap,
        username: "dispatcher.north",
        name: "Nora North",
        role: "Dispatcher",
      },
    });
    const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    await waitForDiscovery(db);
    const ids: string[] = [];
    for (let i = 0; i < INCIDENTS; i++) {
      const res = await fetch(`${origin}/v1/incidents`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          routingMode: "TokenAgency",
          caller: { phoneNumber: `+47960${String(i).padStart(5, "0")}` },
        }),
      });
      if (res.status !== 201) throw new Error(`create incident: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { incidentId: string }).incidentId);
    }
    const body = '{"latitude":59.97,"longitude":10.76}';
    let n = 0;
    const spread: autocannon.Request[] = [
      {
        method: "POST",
        headers,
        body,
        setupRequest: (req) => ({ ...req, path: `/v1/incidents/${ids[n++ % ids.length]}/caller/track` }),
      },
    ];
    const warm = await load("warm-up", { url: origin, requests: spread, seconds: 3 });
    // Each append lengthens its incident's Entered track; positions are rows outside the snapshot
    // (incidents/track-storage.ts), so an append should cost the same however long the track is:
    // the label says how long the tracks were during the run. 3 s of warm-up: V8's optimising JIT.
    let appended = warm.requests;
    if (run.deliveries) await deliveryReport(db, "warm-up", Date.now() - 1, Date.now()); // drained before measuring
    if (run.history) {
      // Seeded from the warm-up's rows, then warmed up again for as long as a row: a bulk load leaves
      // the indexes' pages out of PostgreSQL's buffers, where a history that grew in use would have
      // kept them (random keys: an insert touches any leaf of the dedupe and request-id indexes).
      // Measured at once, the first seconds read them back and ran below the seconds after them,
      // which matched the short tracks.
      const seeded = await seedHistory(db, { incidentIds: ids, ...run.history });
      appended += seeded.positions;
      const warmAgain = await load("warm-up after the history", { url: origin, requests: spread, seconds: SECONDS });
      appended += warmAgain.requests;
      if (run.deliveries) await deliveryReport(db, "warm-up", Date.now() - 1, Date.now());
    }
    // WAL per request: the cluster's, over the row and, in the default mode, the drain of its
    // deliveries (the other process is idle meanwhile). The WAL a change writes is what its commits
    // flush, and the flushes are where the tail waits (docs/performance.md).
    const walPosition = async () =>
      (await db.$queryRaw<Array<{ lsn: string }>>`SELECT pg_current_wal_lsn()::text AS lsn`)[0]!.lsn;
    const walKiB = async (since: string, requests: number) => {
      const [row] = await db.$queryRaw<Array<{ bytes: number }>>`
        SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), ${since}::pg_lsn)::float8 AS bytes`;
      return Math.round((row!.bytes / 1024 / Math.max(1, requests)) * 100) / 100;
    };
    const measured = async (name: string, options: Parameters<typeof load>[1]): Promise<Measured> => {
      const wal = await walPosition();
      const from = Date.now();
      const row = await load(name, { ...options, cpuOf: server });
      const to = Date.now();
      if (!run.deliveries) return { row: { ...row, walKiBPerReq: await walKiB(wal, row.requests) } };
      const report = { ...(await deliveryReport(db, name, from, to)), acceptedRps: row.rps };
      return { row: { ...row, walKiBPerReq: await walKiB(wal, row.requests) }, report };
    };
    return {
      close,
      /** A row over the incidents; with `page`, right after a dashboard page was read. */
      async spread(what: string, options: { page?: boolean } = {}): Promise<Measured> {
        if (options.page) {
          const page = await fetch(`${origin}/`);
          if (!page.ok) throw new Error(`dashboard page: ${page.status}`);
          await page.text();
        }
        const from = Math.round(appended / INCIDENTS);
        const history = run.history ? `, ${run.history.deliveries.toLocaleString("en")} earlier deliveries` : "";
        const result = await measured(`workbench, ${label}, ${INCIDENTS} incidents${what}`, {
          url: origin,
          requests: spread,
          seconds: SECONDS,
        });
        appended += result.row.requests;
        const name = `${result.row.name}, tracks ${from}→${Math.round(appended / INCIDENTS)} positions${history}`;
        return { row: { ...result.row, name }, report: result.report && { ...result.report, name } };
      },
      /** A row on one incident: its changes apply one at a time. */
      oneIncident(): Promise<Measured> {
        return measured(`workbench, ${label}, one incident (its changes one at a time)`, {
          url: `${origin}/v1/incidents/${ids[0]}/caller/track`,
          method: "POST",
          headers,
          body,
          seconds: SECONDS,
        });
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** North PSAP's receiver accepted (its /about read), so the changes are planned under its real flags, as in use. */
async function waitForDiscovery(db: ReturnType<typeof createDbClient>) {
  for (let i = 0; i < 100; i++) {
    const caps = await db.webhookCapabilities.findUnique({ where: { integrationKey: "north-psap" } });
    if (caps?.status === "active") return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("north-psap's receiver was not discovered within 10 s");
}
