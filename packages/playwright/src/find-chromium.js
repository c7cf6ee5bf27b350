// @ts-check
// Which Chromium Playwright drives, found one way for every suite that launches one: the
// workbench's own end-to-end tests (playwright.config.ts, and the check `npm run test:e2e` runs
// before it builds anything), the QA example project, the benches and the scripts. In order:
//   1. CHROMIUM_PATH, when set: a Chromium or Chrome binary (set but missing is an error, not skipped);
//   2. /usr/bin/chromium: Debian's `chromium` package;
//   3. Playwright's own Chromium (`npx playwright install chromium`), when its file is there.
// WORKBENCH_BROWSER_SEARCH narrows the places looked at (a comma-separated subset of
// `CHROMIUM_PATH,system,playwright`): a test hook, so a test can look for "no browser" on a machine
// that has /usr/bin/chromium.
//
// Plain JavaScript with JSDoc types, not TypeScript: that check runs under plain Node (20 strips no
// types) before anything is built.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** Debian's Chromium (`apt-get install chromium`). */
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/** Where a Chromium was found: CHROMIUM_PATH, /usr/bin/chromium ("system") or Playwright's own browsers. @typedef {"CHROMIUM_PATH" | "system" | "playwright"} ChromiumSource */
const SOURCES = /** @type {const} */ (["CHROMIUM_PATH", "system", "playwright"]);

/**
 * Where Chromium is, or (`found: false`) ONE line to print: what is missing and what to install on this system.
 * @typedef {{ found: true, path: string, source: ChromiumSource } | { found: false, message: string }} ChromiumSearch
 */

/**
 * @typedef {object} FindChromiumOptions
 * @property {Record<string, string | undefined>} [env] the environment to read CHROMIUM_PATH and WORKBENCH_BROWSER_SEARCH from (default: process.env)
 * @property {(path: string) => boolean} [exists] whether a file is there (default: fs.existsSync)
 * @property {NodeJS.Platform} [platform] for the install advice (default: process.platform)
 * @property {string} [osRelease] /etc/os-release's text, for the install advice on Linux (default: read it)
 * @property {() => (string | undefined)} [playwrightChromium] where Playwright's own Chromium would be (default: Playwright's `chromium.executablePath()`)
 */

/**
 * Looks for Chromium: CHROMIUM_PATH, then /usr/bin/chromium, then Playwright's own.
 * @param {FindChromiumOptions} [options]
 * @returns {ChromiumSearch}
 */
export function findChromium(options = {}) {
  const env = options.env ?? process.env;
  const exists = options.exists ?? existsSync;
  const search = searchedSources(env.WORKBENCH_BROWSER_SEARCH);
  if (typeof search === "string") return { found: false, message: search };
  const explicit = env.CHROMIUM_PATH?.trim();
  if (explicit && search.includes("CHROMIUM_PATH")) {
    if (exists(explicit)) return { found: true, path: explicit, source: "CHROMIUM_PATH" };
    return {
      found: false,
      message: `CHROMIUM_PATH is ${explicit}, which does not exist: set it to a Chromium or Chrome binary, or unset it.`,
    };
  }
  if (search.includes("system") && exists(SYSTEM_CHROMIUM))
    return { found: true, path: SYSTEM_CHROMIUM, source: "system" };
  if (search.includes("playwright")) {
    const own = (options.playwrightChromium ?? playwrightChromium)();
    if (own && exists(own)) return { found: true, path: own, source: "playwright" };
  }
  return {
    found: false,
    message: `No Chromium found (CHROMIUM_PATH unset, no ${SYSTEM_CHROMIUM}, no Playwright browser): ${installAdvice(
      options.platform ?? process.platform,
      options.osRelease,
    )}`,
  };
}

/**
 * The path for Playwright's `launchOptions.executablePath`; throws the one-line advice when there is none.
 * @param {FindChromiumOptions} [options]
 * @returns {string}
 */
export function chromiumExecutablePath(options) {
  const result = findChromium(options);
  if (!result.found) throw new Error(result.message);
  return result.path;
}

/**
 * What to install, for this operating system, in one sentence.
 * @param {NodeJS.Platform} platform
 * @param {string} [osRelease]
 * @returns {string}
 */
export function installAdvice(platform, osRelease) {
  const playwright = "`npx playwright install chromium`";
  if (platform === "darwin")
    return `run ${playwright}, or set CHROMIUM_PATH to Chrome ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome").`;
  if (platform === "win32")
    return `run ${playwright}, or set CHROMIUM_PATH to Chrome (C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe).`;
  if (platform === "linux" && isDebian(osRelease ?? readOsRelease()))
    return "install Debian's Chromium (`sudo apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome binary.";
  return `run ${playwright}, or set CHROMIUM_PATH to a Chromium or Chrome binary.`;
}

/**
 * @param {string | undefined} value WORKBENCH_BROWSER_SEARCH
 * @returns {readonly ChromiumSource[] | string} the sources, or what is wrong with the value
 */
function searchedSources(value) {
  if (value === undefined || value.trim() === "") return SOURCES;
  const named = value.split(",").map((s) => s.trim());
  const unknown = named.filter((s) => !(/** @type {readonly string[]} */ (SOURCES).includes(s)));
  if (unknown.length)
    return `WORKBENCH_BROWSER_SEARCH names ${unknown.join(", ")}: it takes a comma-separated subset of ${SOURCES.join(",")}.`;
  return SOURCES.filter((s) => named.includes(s));
}

/** Debian itself: its `chromium` package installs /usr/bin/chromium (Ubuntu's Chromium is a snap, without it). */
const isDebian = (/** @type {string} */ osRelease) => /^ID="?debian"?$/m.test(osRelease);

function readOsRelease() {
  try {
    return readFileSync("/etc/os-release", "utf8");
  } catch {
    return "";
  }
}

/** @returns {string | undefined} */
function playwrightChromium() {
  try {
    // Loaded only when it is needed (the other places came up empty): it costs a few hundred ms.
    const { chromium } = createRequire(import.meta.url)("@playwright/test");
    return chromium.executablePath();
  } catch {
    return undefined; // no @playwright/test here, or a platform Playwright ships no browser for
  }
}
