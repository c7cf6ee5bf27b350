// Runs the module in a fresh node process, compiled as the launcher is (server/launch.ts, by
// scripts/build-server.mjs): whether libuv's pool started below the main thread is a fact of the
// process, read back from /proc.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POOL_NICE_INCREMENT } from "./thread-pool-priority.ts";

const run = promisify(execFile);
const MODULE = path.join(import.meta.dirname, "thread-pool-priority.ts");
// Starts the pool below the event loop, then gives it work and reports what the process runs with.
const PROBE = `
import { readFile } from "node:fs/promises";
import os from "node:os";
import { describeThreadPoolPriority, startThreadPoolBelowEventLoop } from ${JSON.stringify(MODULE)};
void startThreadPoolBelowEventLoop().then(async (started) => {
  await readFile(${JSON.stringify(MODULE)});
  console.log(JSON.stringify({ started, now: describeThreadPoolPriority(), mainNice: os.getPriority(0) }));
});
`;

describe.runIf(process.platform === "linux")("startThreadPoolBelowEventLoop", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "pool-priority-"));
    await writeFile(path.join(dir, "probe.ts"), PROBE);
    for (const format of ["cjs", "esm"] as const)
      await build({
        entryPoints: [path.join(dir, "probe.ts")],
        outfile: path.join(dir, format === "cjs" ? "probe.cjs" : "probe.mjs"),
        bundle: true,
        packages: "external",
        platform: "node",
        format,
        logLevel: "silent",
      });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const probe = async (file: string, env: Record<string, string> = {}) => {
    const { stdout } = await run(process.execPath, [path.join(dir, file)], { env: { ...process.env, ...env } });
    return JSON.parse(stdout) as {
      started: { lowered: boolean; threads?: number; nice?: number; reason?: string };
      now: { lowered: boolean; threads?: number; nice?: number };
      mainNice: number;
    };
  };

  it("from a CommonJS entry: every pool thread runs below the main thread, which keeps its priority", async () => {
    // An unusual pool size, so the count shows these are the pool's threads and no others.
    const { started, now, mainNice } = await probe("probe.cjs", { UV_THREADPOOL_SIZE: "3" });
    expect(mainNice).toBe(os.getPriority(0)); // inherited from this process, not raised
    expect(started).toEqual({ lowered: true, threads: 3, nice: Math.min(19, mainNice + POOL_NICE_INCREMENT) });
    expect(now).toEqual(started); // the worker that started the pool is gone; its threads stayed
  });

  it("from an ES module entry: says the pool had already started, and changes nothing", async () => {
    const { started, now, mainNice } = await probe("probe.mjs");
    expect(started).toEqual({ lowered: false, reason: "the thread pool had already started" });
    expect(now.lowered).toBe(false);
    expect(mainNice).toBe(os.getPriority(0));
  });
});
