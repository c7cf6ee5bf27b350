// Where a load run's CPU went, per request: the server under test, PostgreSQL
// and the load generator, plus how much of the machine stayed idle. Read from
// /proc (Linux; elsewhere the split is simply absent). Why: on these 2-core
// machines req/s alone does not say whether the next gain must come from Node,
// from PostgreSQL or from using idle cores; the throwaway harnesses that
// answered it before are now one call.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

export type CpuSplit = {
  /** CPU ms per request of the server's process group (PostgreSQL processes in it excluded). */
  serverMs: number;
  /** CPU ms per request of every process named postgres on the machine (backends and background). */
  postgresMs: number;
  /** CPU ms per request of this process, which runs the load generator. */
  loadMs: number;
  /** Share of the machine's CPU time that was idle during the run, 0–100. */
  idlePct: number;
};

type Sample = { server: number; postgres: number; load: number; idle: number; total: number };

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

export type ProcStat = {
  comm: string;
  pgrp: number;
  /** utime + stime. */
  cpuMs: number;
  /** cutime + cstime: the CPU of its children that have exited and been waited for. */
  exitedChildrenMs: number;
};

/** Comm, process group and CPU in ms of one process ("self" or a pid); undefined once it is gone. */
export function readProcStat(pid: number | "self"): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp … utime stime …": comm may hold spaces, so split after its ")".
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return {
    comm: stat.slice(stat.indexOf("(") + 1, close),
    pgrp: Number(fields[2]),
    cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond,
    exitedChildrenMs: ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond,
  };
}

/** Every process's stat (vanished ones skipped). */
function processes(): ProcStat[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => readProcStat(Number(entry)) ?? []);
}

function sample(serverGroup: number): Sample | undefined {
  let cpuLine: string;
  try {
    cpuLine = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  } catch {
    return undefined; // not Linux
  }
  // cpu user nice system idle iowait irq softirq steal …
  const ticks = cpuLine.trim().split(/\s+/).slice(1, 9).map(Number);
  let server = 0;
  let postgres = 0;
  for (const p of processes()) {
    // A backend that exits during the run (a pool closing an idle connection) takes its CPU out of the
    // sum; the postmaster, which waits for it, then carries it as its children's.
    if (p.comm === "postgres") postgres += p.cpuMs + p.exitedChildrenMs;
    else if (p.pgrp === serverGroup) server += p.cpuMs;
  }
  const own = process.cpuUsage();
  return {
    server,
    postgres,
    load: (own.user + own.system) / 1000,
    idle: ticks[3]! + ticks[4]!,
    total: ticks.reduce((a, b) => a + b, 0),
  };
}

/** Starts measuring; the returned function ends it and divides by the requests the run completed. */
export function startCpuSplit(serverGroup: number): (requests: number) => CpuSplit | undefined {
  const before = sample(serverGroup);
  return (requests) => {
    const after = sample(serverGroup);
    if (!before || !after || requests <= 0) return undefined;
    const per = (a: number, b: number) => Math.round(((b - a) / requests) * 1000) / 1000;
    return {
      serverMs: per(before.server, after.server),
      postgresMs: per(before.postgres, after.postgres),
      loadMs: per(before.load, after.load),
      idlePct: Math.round(((after.idle - before.idle) / Math.max(1, after.total - before.total)) * 100),
    };
  };
}
