// Shared bench helpers: autocannon runs and child servers, bounded in time,
// loopback only.
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { closeSync, openSync } from "node:fs";
import autocannon from "autocannon";
import { startCpuSplit, type CpuSplit } from "./cpu-split.ts";
import { setTimeout as sleep } from "node:timers/promises";
import { processesInGroup, samplePeakRss } from "./process-memory.ts";
import { SERVER_NODE_OPTIONS } from "../../server/platform/server-node-options.ts";

export type LoadResult = {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpu?: CpuSplit;
  /** Peak resident memory of the server process during the row, MiB. */
  peakRssMiB?: number | null;
  /** WAL the database cluster wrote per request during the row (and the drain after it, where a bench waits for one), KiB. */
  walKiBPerReq?: number;
};

/** `cpuOf`: the server's child process; its process group's CPU per request is reported beside PostgreSQL's and the load generator's (cpu-split.ts). */
export async function load(
  name: string,
  options: {
    url: string;
    method?: "GET" | "POST";
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    seconds?: number;
    requests?: autocannon.Request[];
    cpuOf?: ChildProcess;
  },
): Promise<LoadResult> {
  const endCpuSplit = options.cpuOf?.pid ? startCpuSplit(options.cpuOf.pid) : undefined;
  const endRss = options.cpuOf?.pid ? samplePeakRss(options.cpuOf.pid) : undefined;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? "GET",
    body: options.body,
    headers: options.headers,
    connections: options.connections ?? 32,
    duration: options.seconds ?? 5,
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    name,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpu: endCpuSplit?.(result.requests.total),
    peakRssMiB: endRss?.(),
  };
}

export function printTable(title: string, rows: LoadResult[], note?: string) {
  console.log(`\n## ${title}`);
  console.table(
    rows.map((r) => ({
      target: r.name,
      "req/s": r.rps,
      "p50 ms": r.p50,
      "p99 ms": r.p99,
      requests: r.requests,
      errors: r.errors,
      non2xx: r.non2xx,
      ...(r.cpu
        ? {
            "server CPU ms/req": r.cpu.serverMs,
            "PostgreSQL CPU ms/req": r.cpu.postgresMs,
            "load gen. CPU ms/req": r.cpu.loadMs,
            "idle %": r.cpu.idlePct,
          }
        : {}),
      ...(r.peakRssMiB ? { "peak RSS MiB": r.peakRssMiB } : {}),
      ...(r.walKiBPerReq !== undefined ? { "WAL KiB/req": r.walKiBPerReq } : {}),
    })),
  );
  if (rows.some((r) => r.cpu)) {
    console.log(
      "CPU per request from /proc: the server's process group (its PostgreSQL excluded), every postgres process on the machine,",
    );
    console.log(`and this process (the load generator); idle % is the machine's (${availableParallelism()} cores).`);
  }
  if (rows.some((r) => r.walKiBPerReq !== undefined))
    console.log("WAL KiB/req: the cluster's WAL position moved over the row (and its drain) per request.");
  if (note) console.log(note);
}

/**
 * The workbench as `npm start` runs it: the compiled server (`npm run bench` builds it first).
 * `BENCH_SERVER_NODE_ARGS` adds Node options to the server alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 * (Node refuses --cpu-prof in NODE_OPTIONS).
 */
export const WORKBENCH_ENTRY = workbenchEntry("dist/server/launch.cjs");

/** The command that starts a workbench server from `launcher` (a build's `server/launch.cjs`) with the benches' options. */
export function workbenchEntry(launcher: string): [string, string[]] {
  return [process.execPath, [...SERVER_NODE_OPTIONS, ...serverNodeArgs(), "--enable-source-maps", launcher]];
}

/** `BENCH_SERVER_NODE_ARGS`, split: the Node options every bench gives the servers it starts. */
export function serverNodeArgs(): string[] {
  return process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
}

/** Starts a child process (in `cwd`, else this one's) and resolves once `readyUrl` answers 200; its stdout goes to `stdoutFile` or nowhere. */
export async function startChild(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
  options: { stdoutFile?: string; cwd?: string } = {},
): Promise<ChildProcess> {
  const stdout = options.stdoutFile ? openSync(options.stdoutFile, "w") : "ignore";
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", stdout, "inherit"],
    detached: true,
  });
  if (typeof stdout === "number") closeSync(stdout);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
    const ok = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`${readyUrl} did not answer within 60 s`);
}

/**
 * SIGTERM to the child's process group and wait for its graceful shutdown (which
 * stops its embedded PostgreSQL); on a loaded machine that can take a while, so
 * wait up to 60 s before SIGKILL. A server killed that way leaves its PostgreSQL
 * running, which the next start of the same DATA_DIR detects and reuses.
 */
export async function stopChild(child: ChildProcess): Promise<void> {
  // npm exits on SIGTERM without waiting for the script it runs: stopped means the child has exited
  // and its whole group is gone, or the next start would find the last server still on its port.
  const stopped = () =>
    (child.exitCode !== null || child.signalCode !== null) && processesInGroup(child.pid!).length === 0;
  if (stopped()) return;
  process.kill(-child.pid!, "SIGTERM");
  const deadline = Date.now() + 60_000;
  while (!stopped() && Date.now() < deadline) await sleep(20);
  if (!stopped()) {
    console.warn(`child ${child.pid} did not stop within 60 s after SIGTERM: killing it`);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone meanwhile
    }
    while (!stopped()) await sleep(20);
  }
}
