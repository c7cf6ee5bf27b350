import { defineConfig } from "@playwright/test";

// Each worker gets its own ephemeral workbench (or set WORKBENCH_URL to use a running one).
// Debian's Chromium on these machines; elsewhere drop executablePath and run `npx playwright install`.
export default defineConfig({
  testDir: "tests",
  workers: 1,
  timeout: 60_000,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"], ["junit", { outputFile: "test-results/junit.xml" }]] : "list",
  use: {
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    },
  },
});
