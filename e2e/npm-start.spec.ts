// `npm start`'s own entry (scripts/start.cjs), as a user runs it: one node process that checks the
// build, loads the launcher and serves; the thread pool below the event loop, the pages loaded on
// their first request, and a clean stop on SIGTERM.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../server/cli/ephemeral/start-ephemeral-workbench.ts";

type LogLine = { msg?: string; threadPool?: { lowered: boolean; reason?: string }; url?: string };

test.setTimeout(120_000);

test("npm start's entry serves the API and the pages from one process and stops on SIGTERM", async ({ request }) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "npm-start-e2e-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.cjs"], {
    env: {
      ...process.env,
      NODE_ENV: "development", // the entry runs the production build whatever it is given
      PORT: String(port),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: LogLine[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    for (const line of chunk.split("\n")) if (line.startsWith("{")) lines.push(JSON.parse(line) as LogLine);
  });
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

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.msg === "stopped")).toBe(true);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }
});
