// The embedded server's postmaster as a process: is it running, and what is left of it after it
// was killed (docs/decisions/0055). PostgreSQL starts again on the same data directory only when
// no process of the old server still holds it: a backend orphaned by a killed postmaster keeps the
// shared memory attached ("pre-existing shared memory block is still in use"), and a postmaster.pid
// naming a zombie (a container's init that reaps nothing) looks like a live server to it.
import { readdir, readFile, readlink, rm } from "node:fs/promises";
import path from "node:path";

/** The postmaster's pid from `<pgdata>/postmaster.pid`, or null without one. */
export async function postmasterPid(pgdata: string): Promise<number | null> {
  const text = await readFile(path.join(pgdata, "postmaster.pid"), "utf8").catch(() => null);
  const pid = Number(text?.split("\n", 1)[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Whether `pid` runs: signal 0 answers, and on Linux it is no zombie. */
export async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat === null) return process.platform !== "linux";
  // pid (comm) STATE …: comm may hold spaces and parentheses, the state follows the last ')'.
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

/** Whether the postmaster named by the data directory runs. */
export async function isPostmasterRunning(pgdata: string): Promise<boolean> {
  const pid = await postmasterPid(pgdata);
  return pid !== null && (await isRunning(pid));
}

/** Live processes whose working directory is `pgdata`: the server's own (PostgreSQL's processes chdir there). Linux only. */
async function serverProcesses(pgdata: string): Promise<number[]> {
  const entries = await readdir("/proc").catch(() => [] as string[]);
  const target = path.resolve(pgdata);
  const found: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
    if (cwd === target && (await isRunning(pid))) found.push(pid);
  }
  return found;
}

/**
 * Clears what a killed postmaster left: its orphaned processes are killed (they serve no one: their
 * postmaster is gone), and its postmaster.pid and socket lock files (in the data directory, where
 * the embedded server keeps its socket) are removed. Only for a
 * postmaster that is not running; returns how many orphans were killed.
 */
export async function clearKilledServer(pgdata: string, waitMs = 5_000): Promise<number> {
  if (await isPostmasterRunning(pgdata)) throw new Error("the postmaster is running");
  const orphans = await serverProcesses(pgdata);
  for (const pid of orphans) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  const deadline = performance.now() + waitMs;
  while ((await serverProcesses(pgdata)).length && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  // Its lock files name the killed postmaster; while that is an unreaped zombie, PostgreSQL takes it for a live one.
  const socketLocks = (await readdir(pgdata).catch(() => [] as string[])).filter((f) =>
    /^\.s\.PGSQL\.\d+\.lock$/.test(f),
  );
  for (const file of ["postmaster.pid", ...socketLocks]) await rm(path.join(pgdata, file), { force: true });
  return orphans.length;
}
