// A headless workbench (run-headless-workbench.ts) as a child process of a test: its log lines,
// its exit, its health, and how to reach its embedded database from the test.
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";

export type HeadlessChild = {
  url: string;
  child: ChildProcess;
  /** Every JSON log line so far, parsed. */
  logs: Array<Record<string, unknown>>;
  exited: Promise<number | null>;
  /** `<DATA_DIR>/pg/data`, for an embedded database. */
  pgdata: string;
  /** A URL to the child's embedded database, over TCP (read from its cluster's workbench.json). */
  embeddedUrl: () => Promise<string>;
  health: () => Promise<{ status: number; body: Record<string, unknown>; ms: number }>;
  waitFor: (predicate: () => boolean | Promise<boolean>, what: string, timeoutMs?: number) => Promise<void>;
  stop: () => Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
      .once("error", reject)
      .listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
  });
}

export async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startHeadlessChild(env: Record<string, string>): Promise<HeadlessChild> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn("node_modules/.bin/tsx", ["server/platform/db/testing/run-headless-workbench.ts"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "test",
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: stop() ends tsx and node together
  });
  const logs: Array<Record<string, unknown>> = [];
  let rest = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    for (const line of lines)
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        logs.push({ msg: line });
      }
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr = (stderr + c).slice(-4_000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const pgdata = path.join(env.DATA_DIR ?? "", "pg", "data");

  const health = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: performance.now() - started };
  };
  const handle: HeadlessChild = {
    url,
    child,
    logs,
    exited,
    pgdata,
    async embeddedUrl() {
      const state = JSON.parse(await readFile(path.join(env.DATA_DIR!, "pg", "workbench.json"), "utf8")) as {
        port: number;
        password: string;
      };
      return `postgresql://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/workbench`;
    },
    health,
    waitFor,
    async stop() {
      if (gone) return;
      process.kill(-child.pid!, "SIGTERM");
      const timer = setTimeout(() => !gone && process.kill(-child.pid!, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  await waitFor(
    async () => {
      if (gone) throw new Error(`the headless workbench exited during start: ${stderr}`);
      return logs.some((l) => l.msg === "headless workbench ready");
    },
    "the headless workbench to start",
    90_000,
  );
  return handle;
}
