// libuv's thread pool below the event loop (decision 0033). The pool runs what Node offloads:
// RS256 signing and verifying (WebCrypto), scrypt, the file system, DNS. Its four threads share the
// two cores with the main thread; when all four signed tokens, the kernel let each thread the main
// thread woke take the core from it, and the event loop, which accepts the next request and writes
// the last response, waited runnable instead.
//
// On Linux a nice value belongs to one thread, and a new thread starts with its creator's. libuv
// creates the pool's threads when the first job is queued, in the thread that queues it. So a
// short-lived worker thread raises its own nice value and queues the first job: the pool's threads
// start niced, the main thread keeps its own. No privilege is needed (raising one's nice value
// never is), and no thread id has to be guessed.
//
// It must run before anything queues a job. Loading an ES module entry already has (Node's module
// loader reads files through the pool), so the process starts from a CommonJS entry that calls
// this first (server/launch.ts).
import { readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";

/** How far below the main thread the pool runs: weight 335 against 1,024 in Linux's scheduler. */
export const POOL_NICE_INCREMENT = 5;

const FIRST_JOB = `
const os = require("node:os");
const { parentPort, workerData } = require("node:worker_threads");
let error = null;
try { os.setPriority(0, workerData.nice); } catch (e) { error = String(e && e.message || e); }
require("node:fs").stat(".", () => parentPort.postMessage(error));
`;

export type PoolPriority = { lowered: true; threads: number; nice: number } | { lowered: false; reason: string };

/** Starts libuv's thread pool POOL_NICE_INCREMENT below the main thread, if it has not started yet. */
export async function startThreadPoolBelowEventLoop(increment = POOL_NICE_INCREMENT): Promise<PoolPriority> {
  if (process.platform !== "linux")
    return { lowered: false, reason: `${process.platform}: a nice value is not per thread here` };
  const before = new Set(threadIds());
  const nice = Math.min(19, os.getPriority(0) + increment);
  const worker = new Worker(FIRST_JOB, { eval: true, workerData: { nice } });
  const error = await new Promise<string | null>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  }).finally(() => worker.terminate());
  if (error) return { lowered: false, reason: `the worker could not lower its priority: ${error}` };
  const started = threadIds().filter((id) => !before.has(id) && niceOf(id) === nice);
  if (started.length === 0) return { lowered: false, reason: "the thread pool had already started" };
  return { lowered: true, threads: started.length, nice };
}

/** What the process runs with now: the pool's threads are the ones niced below the main thread. */
export function describeThreadPoolPriority(): PoolPriority {
  if (process.platform !== "linux") return { lowered: false, reason: `${process.platform}` };
  const main = niceOf(process.pid);
  const niced = threadIds()
    .map(niceOf)
    .filter((n): n is number => n !== undefined && main !== undefined && n > main);
  if (niced.length === 0) return { lowered: false, reason: "no thread runs below the main thread" };
  return { lowered: true, threads: niced.length, nice: Math.max(...niced) };
}

function threadIds(): number[] {
  return readdirSync("/proc/self/task").map(Number);
}

/** Field 19 of /proc/self/task/<id>/stat, counted after the command name's closing parenthesis. */
function niceOf(id: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    const nice = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    return Number.isInteger(nice) ? nice : undefined;
  } catch {
    return undefined; // the thread ended between the listing and the read
  }
}
