import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { chromiumExecutablePath } from "./packages/playwright/src/find-chromium.js";
import { SERVER_NODE_OPTIONS } from "./server/platform/server-node-options.ts";
import { SCREENSHOTS_WANTED } from "./e2e/fixtures/screenshots";

// The real entry as `npm start` runs it (dist/server/launch.cjs, production build) on its own port and data
// directory; the Chromium packages/playwright/src/find-chromium.js finds (CHROMIUM_PATH, Debian's
// /usr/bin/chromium, Playwright's own), or one line saying what to install.
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_URL = `http://localhost:${PORT}`;
const SERVER_COMMAND = `node ${SERVER_NODE_OPTIONS.join(" ")} --enable-source-maps dist/server/launch.cjs`;
// A second workbench in shared mode (sign-in required), for e2e/shared-sign-in.spec.ts: the next
// port, its own data directory and embedded PostgreSQL, and a configured first admin.
const SHARED_PORT = PORT + 1;
export const E2E_SHARED_URL = `http://localhost:${SHARED_PORT}`;
export const E2E_SHARED_ADMIN_PASSWORD = "e2e-admin-password";

// Both workbenches log to .test-logs/e2e-<port>.jsonl, which scripts/check-suite-logs.mjs reads after
// the run: no secret in any line. Emptied when the run starts (not in a worker, which loads this too).
const SUITE_LOGS = path.resolve(".test-logs");
if (process.env.TEST_WORKER_INDEX === undefined) {
  mkdirSync(SUITE_LOGS, { recursive: true });
  for (const file of readdirSync(SUITE_LOGS)) if (file.startsWith("e2e-")) rmSync(path.join(SUITE_LOGS, file));
}
const logFile = (port: number) => path.join(SUITE_LOGS, `e2e-${port}.jsonl`);

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // In CI the browser runs beside the checks half's four vitest workers on as few as two cores, where
  // a step that takes 4 s alone has been seen to take 30; a hang still fails, a minute later.
  timeout: process.env.CI ? 60_000 : 30_000,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  globalSetup: "./e2e/fixtures/global-setup.ts",
  use: {
    baseURL: E2E_URL,
    trace: "retain-on-failure",
    // Every test's last screen, to look at; a failing test's always (e2e/fixtures/screenshots.ts).
    screenshot: SCREENSHOTS_WANTED ? "on" : "only-on-failure",
    launchOptions: {
      executablePath: chromiumExecutablePath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      command: SERVER_COMMAND,
      url: `${E2E_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      env: {
        NODE_ENV: "production",
        PORT: String(PORT),
        DATA_DIR: ".data/e2e",
        LOG_LEVEL: "info",
        LOG_FILE: logFile(PORT),
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
    {
      command: SERVER_COMMAND,
      url: `${E2E_SHARED_URL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      env: {
        NODE_ENV: "production",
        PORT: String(SHARED_PORT),
        DATA_DIR: ".data/e2e-shared",
        LOG_LEVEL: "info",
        LOG_FILE: logFile(SHARED_PORT),
        NEXT_TELEMETRY_DISABLED: "1",
        EMBEDDED_PG_PORT: String(Number(process.env.EMBEDDED_PG_PORT ?? 5499) + 1),
        WORKBENCH_ACCESS: "shared",
        WORKBENCH_ADMIN_PASSWORD: E2E_SHARED_ADMIN_PASSWORD,
      },
    },
  ],
});
