// Two builds of the server under the same caller/track load, for a change too small to show
// between whole inbound-track runs (machines here drift by a fifth within minutes). Each build is a
// copy of `dist/` under this repository, so that its imports resolve to this node_modules:
//
//   npm run build && rm -rf .ab/a && cp -r dist .ab/a      # before the change
//   npm run build && rm -rf .ab/b && cp -r dist .ab/b      # after it
//   BENCH_AB=.ab/a,.ab/b npm run bench inbound-ab
//
// A server applies the migrations it finds first going up from its own folder: for a change with a
// migration, give the build before it the migrations it was built with, or it runs the new schema
// under the old code (`git archive <rev> prisma/migrations | tar -x -C .ab/a`).
//
// Both servers run in the default mode (BENCH_AB_MODE=api: API-only), each on a database of its
// own in one embedded cluster; their rows alternate, A then B, then B then A (BENCH_PAIRS pairs,
// default 8, in two halves, each on a fresh pair of servers started in the other order), over 64
// incidents or, with BENCH_AB_ONE=1, on one incident. The
// comparison is per pair, the order's effect taken out (lib/paired-comparison.ts). Without BENCH_AB
// the bench is skipped.
//
// BENCH_AB_ENV_A / BENCH_AB_ENV_B: extra environment of one build's server ("K=V K=V"), e.g. the same
// build twice, B with tracing on: `{otlp}` in a value stands for an OTLP sink this bench starts
// (lib/otlp-sink.ts), so exporting costs what it costs against a collector that keeps up:
//
//   BENCH_AB=.ab/a,.ab/a BENCH_AB_ENV_B="OTEL_EXPORTER_OTLP_ENDPOINT={otlp}" npm run bench inbound-ab
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { printTable, workbenchEntry, type LoadResult } from "./lib/load.ts";
import { printDeliveryTable, type DeliveryReport } from "./lib/delivery-report.ts";
import { median } from "./lib/median.ts";
import { comparePairs } from "./lib/paired-comparison.ts";
import { SECONDS, openTrack, type Measured } from "./lib/track-server.ts";
import { startEmbeddedPostgres } from "../server/platform/db/embedded-postgres.ts";
import { ensureDatabase } from "../server/platform/db/open-database.ts";
import { startOtlpSink } from "./lib/otlp-sink.ts";

/** "K=V K=V" as an environment. */
function envList(text: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of (text ?? "").split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at < 1) throw new Error(`inbound-ab: "${pair}" is not K=V`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

export async function run() {
  const builds = (process.env.BENCH_AB ?? "")
    .split(",")
    .map((dir) => dir.trim())
    .filter(Boolean);
  if (builds.length !== 2) {
    console.log(
      "\n## inbound-ab: skipped (set BENCH_AB=<copy of dist A>,<copy of dist B>: see bench/inbound-ab.bench.ts)",
    );
    return;
  }
  const launchers = builds.map((dir) => path.resolve(dir, "server", "launch.cjs"));
  for (const launcher of launchers) if (!existsSync(launcher)) throw new Error(`inbound-ab: no ${launcher}`);
  const apiOnly = process.env.BENCH_AB_MODE === "api";
  const oneIncident = process.env.BENCH_AB_ONE === "1";
  const pairs = Math.max(1, Number(process.env.BENCH_PAIRS ?? 8));
  const basePort = Number(process.env.BENCH_PORT ?? 3210);

  const extraEnv = [process.env.BENCH_AB_ENV_A, process.env.BENCH_AB_ENV_B].map(envList);
  const sink = extraEnv.some((env) => Object.values(env).some((v) => v.includes("{otlp}")))
    ? await startOtlpSink()
    : null;
  if (sink) for (const env of extraEnv) for (const k in env) env[k] = env[k]!.replaceAll("{otlp}", sink.url);
  const clusterDir = path.join(os.tmpdir(), `wb-bench-ab-${process.pid}`);
  const cluster = await startEmbeddedPostgres({
    dataDir: clusterDir,
    port: Number(process.env.EMBEDDED_PG_PORT ?? 5499),
    ephemeral: true,
  });
  const rows: LoadResult[] = [];
  const deliveries: DeliveryReport[] = [];
  const results: Measured[][] = [[], []];
  const order: boolean[] = [];
  try {
    // Of two servers started one after the other, the second ran ~2 % faster (one build as both A and
    // B, started A first: B ahead ~2 %; started B first: level). So the pairs run in two halves, each
    // on servers started afresh on databases of their own: A started first, then B started first.
    const half = Math.ceil(pairs / 2);
    for (const [h, startOrder] of [
      [0, 1],
      [1, 0],
    ].entries()) {
      if (h * half >= pairs) break; // one pair: one half
      const servers: Array<Awaited<ReturnType<typeof openTrack>>> = [];
      try {
        for (const i of startOrder) {
          const name = `ab_${"ab"[i]}_${h + 1}`;
          await ensureDatabase(cluster.url("postgres"), name);
          servers[i] = await openTrack(
            `${"AB"[i]} (${builds[i]})`,
            cluster.url(name),
            basePort + 2 + 2 * i,
            { env: { DELIVERY_WORKERS: apiOnly ? "false" : "true", ...extraEnv[i] }, deliveries: !apiOnly },
            workbenchEntry(launchers[i]!),
          );
        }
        for (let k = h * half; k < Math.min(pairs, (h + 1) * half); k++) {
          const aFirst = k % 2 === 0;
          order.push(aFirst);
          for (const i of aFirst ? [0, 1] : [1, 0]) {
            const measured = oneIncident
              ? await servers[i]!.oneIncident()
              : await servers[i]!.spread(` (pair ${k + 1})`);
            results[i]!.push(measured);
            rows.push(measured.row);
            if (measured.report) deliveries.push(measured.report);
          }
        }
      } finally {
        for (const server of servers) if (server) await server.close();
      }
    }
  } finally {
    await cluster.stop();
    await rm(clusterDir, { recursive: true, force: true });
    await sink?.close();
  }
  for (const [i, env] of extraEnv.entries())
    if (Object.keys(env).length) console.log(`${"AB"[i]}'s extra environment: ${Object.keys(env).join(", ")}`);
  if (sink)
    console.log(`OTLP sink: ${sink.counts.exports} exports, ${(sink.counts.bytes / 1024 / 1024).toFixed(1)} MiB`);

  printTable(
    `inbound-ab: caller/track, 32 connections, ${SECONDS} s rows, ${apiOnly ? "API-only" : "default mode"}, ${oneIncident ? "one incident" : "64 incidents"}`,
    rows,
  );
  if (deliveries.length) printDeliveryTable(deliveries);
  const rates = results.map((measured) => measured.map((m) => m.row.rps));
  const cpu = (i: number) => results[i]!.map((m) => (m.row.cpu?.serverMs ?? NaN) + (m.row.cpu?.postgresMs ?? NaN));
  const c = comparePairs(order.map((aFirst, k) => ({ a: rates[0]![k]!, b: rates[1]![k]!, aFirst })));
  for (const [i, build] of builds.entries())
    console.log(
      `${"AB"[i]} (${build}): req/s median ${median(rates[i]!)}; server + PostgreSQL CPU per request median ${median(cpu(i)).toFixed(3)} ms`,
    );
  console.log(
    `B / A: ${c.ratio.toFixed(3)} (pairs compared, the order's effect taken out); B ahead in ${c.bAhead} of ${c.pairs} pairs; ` +
      `first row of a pair ${c.firstRowAdvantage === null ? "n/a" : `× ${c.firstRowAdvantage.toFixed(3)}`}`,
  );
}
