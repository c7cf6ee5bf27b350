// `npm start` as a user runs it, on a data directory of its own: the first start
// (initdb, migrations, seed), then warm starts of the same directory, each timed
// from the spawn to the first 200 of /api/health, and the server's resident memory
// once idle. Target: a warm start ready in under 2 s (docs/performance.md). The memory under
// load is in inbound-track's rows (peak RSS of the server process).
import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { stopChild } from "./lib/load.ts";
import { median } from "./lib/median.ts";
import { findInGroup, rssMiB } from "./lib/process-memory.ts";

const WARM_STARTS = 3;

export async function run() {
  const port = Number(process.env.BENCH_PORT ?? 3210) + 4;
  const dataDir = path.join(os.tmpdir(), `wb-bench-startup-${process.pid}`);
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(Number(process.env.EMBEDDED_PG_PORT ?? 5499) + 40),
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const rows: Array<Record<string, string | number>> = [];
  try {
    const first = await timedStart(env, port);
    rows.push({ start: "first (empty data directory)", "ready ms": first.readyMs });
    await stopChild(first.child);
    const warm: number[] = [];
    for (let i = 0; i < WARM_STARTS; i++) {
      const started = await timedStart(env, port);
      warm.push(started.readyMs);
      if (i === WARM_STARTS - 1) {
        await new Promise((r) => setTimeout(r, 2_000));
        rows.push({ start: `warm, median of ${WARM_STARTS}`, "ready ms": median(warm) });
        rows.push({
          start: "server RSS, idle 2 s after a warm start",
          "ready ms": "",
          "RSS MiB": serverRssMiB(started.child),
        });
      }
      await stopChild(started.child);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log("\n## npm start: time to ready, memory");
  console.table(rows);
  console.log("target: a warm npm start ready in under 2 s (from the spawn of npm to /api/health answering 200)");
}

async function timedStart(
  env: Record<string, string>,
  port: number,
): Promise<{ child: ChildProcess; readyMs: number }> {
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}/api/health`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    if (performance.now() - started > 120_000) throw new Error(`${url} did not answer within 120 s`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, readyMs: Math.round(performance.now() - started) };
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The node server's RSS under npm (npm start runs it in npm's process group). */
function serverRssMiB(npm: ChildProcess): number | string {
  const server = findInGroup(npm.pid!, "scripts/start.cjs");
  return (server && rssMiB(server)) ?? "n/a";
}
