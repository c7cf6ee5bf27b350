// Resident memory of bench children, from /proc (Linux only; null elsewhere).
import { readdirSync, readFileSync } from "node:fs";

/** Resident set size of one process in MiB, or null when it cannot be read. */
export function rssMiB(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * The largest process of a process group whose command line contains `needle`: the node server under
 * `npm start` (the shell npm starts it with has the same command line, and a few hundred KiB).
 */
export function findInGroup(group: number, needle: string): number | null {
  let found: { pid: number; rss: number } | null = null;
  for (const pid of processesInGroup(group)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(needle)) continue;
      const rss = rssMiB(pid) ?? 0;
      if (!found || rss > found.rss) found = { pid, rss };
    } catch {
      // the process ended meanwhile
    }
  }
  return found?.pid ?? null;
}

/** The processes of a process group still running (empty where /proc cannot be read). */
export function processesInGroup(group: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === group && fields[0] !== "Z") pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** Samples a process's RSS every 250 ms until the returned function is called; it returns the peak. */
export function samplePeakRss(pid: number): () => number | null {
  let peak: number | null = rssMiB(pid);
  const timer = setInterval(() => {
    const now = rssMiB(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 250);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
