import { defineConfig } from "@playwright/test";
import { chromiumExecutablePath } from "@workbench/playwright";

// Each worker gets its own ephemeral workbench (or set WORKBENCH_URL to use a running one).
// Chromium: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own (`npx playwright
// install chromium`); with none, loading this config fails with one line saying what to install.
export default defineConfig({
  testDir: "tests",
  workers: 1,
  timeout: 60_000,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"], ["junit", { outputFile: "test-results/junit.xml" }]] : "list",
  use: {
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumExecutablePath(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    },
  },
});
