// One workbench server under caller/track load, as the inbound benches drive it: started on a
// database and data directory of its own, with its incidents created and warmed up; its rows run
// when asked, so that several servers can be loaded in turn (inbound-track.bench.ts pairs the
// API-only process with the default mode; inbound-ab.bench.ts compares two builds).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type autocannon from "autocannon";
import { WORKBENCH_ENTRY, load, startChild, stopChild, type LoadResult } from "./load.ts";
import { createDbClient } from "../../server/platform/db/client.ts";
import { WorkbenchClock } from "../../server/platform/clock/clock.ts";
import { createIncidents, partnerHeaders } from "./partner-calls.ts";
import { deliveryReport, type DeliveryReport } from "./delivery-report.ts";
import { seedHistory } from "./seed-history.ts";

/** Incidents a spread row writes; the changes of one incident apply one at a time. */
export const INCIDENTS = 64;
/** Seconds a row lasts (BENCH_SECONDS, default 5). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

export type TrackRun = {
  env: Record<string, string>;
  /** Wait for the outbox to drain after each row and report its deliveries. */
  deliveries?: boolean;
  /** Seed long tracks and earlier deliveries before the load (lib/seed-history.ts). */
  history?: { positions: number; deliveries: number };
  /**
   * The bench's own connection (tokens, drains, reports), when it must not count as the server's:
   * bench/pg-profile.ts connects as a role of its own and reads the server role's statements alone.
   */
  benchDatabaseUrl?: string;
};

export type Measured = { row: LoadResult; report?: DeliveryReport };

/**
 * Starts a server on its own database, creates the incidents and warms it up; its rows then run
 * when asked, so that two servers can be loaded in turn. Each keeps a data directory of its own
 * (one workbench per data directory, docs/decisions/0037).
 */
export async function openTrack(
  label: string,
  databaseUrl: string,
  port: number,
  run: TrackRun,
  /** The command that starts the server: the compiled launcher of this checkout unless given (inbound-ab). */
  entry: [string, string[]] = WORKBENCH_ENTRY,
) {
  const origin = `http://127.0.0.1:${port}`;
  // At the default log level, as `npm start` runs: a line per protocol request (two per change in
  // the default mode), written to a file here (a terminal costs more, /dev/null less).
  const dataDir = `.data/bench-inbound-${port}`;
  await mkdir(dataDir, { recursive: true });
  const server = await startChild(
    ...entry,
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
  const db = createDbClient(run.benchDatabaseUrl ?? databaseUrl, { poolSize: 2 });
  const close = async () => {
    await db.$disconnect();
    await stopChild(server);
  };
  try {
    const headers = await partnerHeaders(db, new WorkbenchClock(), origin);
    await waitForDiscovery(db);
    const ids = await createIncidents(origin, headers, INCIDENTS, (i) => `+47960${String(i).padStart(5, "0")}`);
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
      // The drain's WAL counts too: the report waits for it, so the position is read after it.
      const report = run.deliveries && { ...(await deliveryReport(db, name, from, to)), acceptedRps: row.rps };
      return { row: { ...row, walKiBPerReq: await walKiB(wal, row.requests) }, ...(report && { report }) };
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
