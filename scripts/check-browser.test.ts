// `npm run test:e2e` on a machine without Chromium: one line saying what to install, a non-zero
// exit, and nothing built or launched first. Runs the real npm script; WORKBENCH_BROWSER_SEARCH
// (the test hook of packages/playwright/src/find-chromium.js) hides /usr/bin/chromium, and an empty
// PLAYWRIGHT_BROWSERS_PATH hides Playwright's own browsers.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const emptyBrowsers = mkdtempSync(path.join(os.tmpdir(), "no-playwright-browsers-"));
afterAll(() => rmSync(emptyBrowsers, { recursive: true, force: true }));

function npmRun(script: string, env: Record<string, string | undefined>) {
  const { CHROMIUM_PATH: _unset, ...inherited } = process.env;
  const run = spawnSync("npm", ["run", script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...inherited, PLAYWRIGHT_BROWSERS_PATH: emptyBrowsers, ...env },
  });
  // npm's own report of a failed script ("npm error …") and its "> script" echo are not the script's output.
  const ours = (text: string) =>
    text.split("\n").filter((line) => line.trim() && !line.startsWith("npm error") && !line.startsWith(">"));
  return { status: run.status, stdout: ours(run.stdout), stderr: ours(run.stderr) };
}

// npm itself takes a second or more to start on a loaded machine: more than vitest's default 5 s for a few runs.
describe("npm run test:e2e without a browser", { timeout: 30_000 }, () => {
  it("stops before building with one line naming what to install", () => {
    const run = npmRun("test:e2e", { WORKBENCH_BROWSER_SEARCH: "CHROMIUM_PATH,playwright" });
    expect(run.status).toBe(1);
    expect(run.stderr).toHaveLength(1);
    expect(run.stderr[0]).toMatch(
      /^No Chromium found \(CHROMIUM_PATH unset, no \/usr\/bin\/chromium, no Playwright browser\): (install Debian's Chromium \(`sudo apt-get install chromium`\)|run `npx playwright install chromium`), or set CHROMIUM_PATH to /,
    );
    // Stopped before scripts/build-if-stale.cjs (which always says whether it builds) and Playwright.
    expect(run.stdout).toEqual([]);
  });

  it("stops the same way on a CHROMIUM_PATH that does not exist, even with /usr/bin/chromium present", () => {
    const run = npmRun("test:e2e", { CHROMIUM_PATH: "/nowhere/chromium" });
    expect(run.status).toBe(1);
    expect(run.stderr).toEqual([
      "CHROMIUM_PATH is /nowhere/chromium, which does not exist: set it to a Chromium or Chrome binary, or unset it.",
    ]);
    expect(run.stdout).toEqual([]);
  });

  it("npm run test:examples checks first too", () => {
    const run = npmRun("test:examples", { CHROMIUM_PATH: "/nowhere/chromium" });
    expect(run.status).toBe(1);
    expect(run.stderr).toHaveLength(1);
    expect(run.stdout).toEqual([]);
  });
});
