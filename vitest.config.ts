import { mkdirSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// The test servers' log lines go to .test-logs/vitest-<pid>.jsonl as well (server/testing/test-server.ts),
// for scripts/check-suite-logs.mjs to read after the run: no secret in any of them. Each run starts afresh.
const SUITE_LOGS = path.resolve(".test-logs");
mkdirSync(SUITE_LOGS, { recursive: true });
for (const file of readdirSync(SUITE_LOGS)) if (file.startsWith("vitest-")) rmSync(path.join(SUITE_LOGS, file));
process.env.WORKBENCH_SUITE_LOGS = SUITE_LOGS;

// Three projects: pure unit tests; integration tests (*.int.test.ts) on the
// embedded PostgreSQL; and the same integration tests on TEST_DATABASE_URL's
// server when it is set (CI sets it), so both database paths stay green.
const integration = (name: "embedded" | "external") => ({
  extends: true as const,
  test: {
    name,
    include: ["server/**/*.int.test.ts", "prisma/**/*.int.test.ts"],
    globalSetup: ["server/testing/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  // tsconfig's "@/*" path, so app/ helpers under unit test import like the app does.
  // "server-only" as Next's server build resolves it, so tests may call a Next route handler.
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${new URL("./", import.meta.url).pathname}` },
      {
        find: /^server-only$/,
        replacement: `${new URL("./node_modules/server-only/empty.js", import.meta.url).pathname}`,
      },
    ],
  },
  test: {
    environment: "node",
    pool: "forks",
    // At least four files at once, even on two cores: the integration files mostly wait (on their
    // servers, timers and the database's flushes), not compute, so four workers halve the suite's
    // wall time on a 2-core machine where one per core leaves the CPU two-thirds idle.
    maxWorkers: Math.max(4, os.availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "server/**/*.test.ts",
            "prisma/**/*.test.ts",
            "packages/**/*.test.ts",
            "app/**/*.test.ts",
            "bench/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      integration("embedded"),
      ...(process.env.TEST_DATABASE_URL ? [integration("external")] : []),
    ],
  },
});
