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
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp !== group) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) continue;
      const rss = rssMiB(Number(entry)) ?? 0;
      if (!found || rss > found.rss) found = { pid: Number(entry), rss };
    } catch {
      // the process ended meanwhile
    }
  }
  return found?.pid ?? null;
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
