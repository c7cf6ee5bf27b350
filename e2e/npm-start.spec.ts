// `npm start`'s own entry (scripts/start.cjs), as a user runs it: one node process that checks the
// build, loads the launcher and serves; the thread pool below the event loop, the pages loaded on
// their first request, and a clean stop on SIGTERM; a second start on its data directory or its port
// refused with a message, the first left running.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../server/cli/ephemeral/start-ephemeral-workbench.ts";
import { SERVER_NODE_OPTIONS } from "../server/platform/server-node-options.ts";

type LogLine = { msg?: string; threadPool?: { lowered: boolean; reason?: string }; url?: string };

test.setTimeout(120_000);

/** `npm start`'s entry with these settings: its JSON log lines and its stderr collected. */
function startEntry(env: Record<string, string>) {
  const child = spawn(process.execPath, [...SERVER_NODE_OPTIONS, "scripts/start.cjs"], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: LogLine[] = [];
  let stderr = "";
  let partial = ""; // a line cut between two chunks
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const whole = (partial + chunk).split("\n");
    partial = whole.pop()!;
    for (const line of whole) if (line.startsWith("{")) lines.push(JSON.parse(line) as LogLine);
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    child,
    exited,
    lines,
    stderr: () => stderr,
    /** Killed if it still runs (a test that failed midway). */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

test("npm start's entry serves the API and the pages from one process and stops on SIGTERM", async ({ request }) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "npm-start-e2e-"));
  const port = await freePort();
  const entry = startEntry({
    NODE_ENV: "development", // the entry runs the production build whatever it is given
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
  });
  const { lines } = entry;
  try {
    await expect
      .poll(() => lines.find((l) => l.msg?.startsWith("Incident Platform Workbench ready")), { timeout: 90_000 })
      .toBeTruthy();
    const ready = lines.find((l) => l.msg?.startsWith("Incident Platform Workbench ready"))!;
    if (process.platform === "linux") expect(ready.threadPool).toMatchObject({ lowered: true });

    const url = `http://localhost:${port}`;
    expect((await request.get(`${url}/api/health`)).status()).toBe(200);
    // Pages load on their first request: the first one still answers in full.
    const page = await request.get(`${url}/incidents`);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain("<html");

    entry.child.kill("SIGTERM");
    expect(await entry.exited).toBe(0);
    expect(lines.some((l) => l.msg === "stopped")).toBe(true);
  } finally {
    await entry.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("a second start on the same data directory, or on a port in use, stops with a message and leaves the first running", async ({
  request,
}) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "npm-start-e2e-"));
  const otherDir = await mkdtemp(path.join(os.tmpdir(), "npm-start-e2e-"));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const first = startEntry({ PORT: String(port), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()) });
  try {
    await expect
      .poll(async () => (await request.get(`${url}/api/health`).catch(() => null))?.status(), { timeout: 90_000 })
      .toBe(200);

    // The same data directory (another port): refused before it touches the first one's database.
    const sameDir = startEntry({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await sameDir.exited).toBe(1);
    expect(sameDir.stderr()).toContain(`the embedded database in ${dataDir} is in use by another workbench process`);

    // Its own data directory, the first one's port: it starts, cannot listen, and undoes its start.
    const samePort = startEntry({ PORT: String(port), DATA_DIR: otherDir, EMBEDDED_PG_PORT: String(await freePort()) });
    expect(await samePort.exited).toBe(1);
    expect(samePort.stderr()).toContain(
      `:${port} is already in use (another workbench?): stop what listens there, or set PORT`,
    );

    const health = await request.get(`${url}/api/health`);
    expect(await health.json()).toMatchObject({ status: "ok", database: "embedded" });
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
  } finally {
    await first.kill();
    await rm(dataDir, { recursive: true, force: true });
    await rm(otherDir, { recursive: true, force: true });
  }
});
