import { describe, expect, it } from "vitest";
import { chromiumExecutablePath, findChromium, installAdvice } from "./find-chromium.js";

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n';
const UBUNTU = "NAME=Ubuntu\nID=ubuntu\nID_LIKE=debian\n";
const OWN = "/home/qa/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome";

/** A machine with these files, and Playwright's browser (if installed) at OWN. */
const machine = (files: string[], env: Record<string, string> = {}, platform: NodeJS.Platform = "linux") => ({
  env,
  exists: (p: string) => files.includes(p),
  playwrightChromium: () => OWN,
  platform,
  osRelease: DEBIAN,
});

describe("findChromium", () => {
  it("takes CHROMIUM_PATH first, then /usr/bin/chromium, then Playwright's own", () => {
    const all = ["/opt/chrome/chrome", "/usr/bin/chromium", OWN];
    expect(findChromium(machine(all, { CHROMIUM_PATH: "/opt/chrome/chrome" }))).toEqual({
      found: true,
      path: "/opt/chrome/chrome",
      source: "CHROMIUM_PATH",
    });
    expect(findChromium(machine(all))).toEqual({ found: true, path: "/usr/bin/chromium", source: "system" });
    expect(findChromium(machine([OWN]))).toEqual({ found: true, path: OWN, source: "playwright" });
  });

  it("refuses a CHROMIUM_PATH that does not exist instead of quietly using another browser", () => {
    const result = findChromium(machine(["/usr/bin/chromium"], { CHROMIUM_PATH: "/nowhere/chrome" }));
    expect(result).toEqual({
      found: false,
      message:
        "CHROMIUM_PATH is /nowhere/chrome, which does not exist: set it to a Chromium or Chrome binary, or unset it.",
    });
  });

  it("counts Playwright's browser only when its file is there", () => {
    const result = findChromium({ ...machine([]), playwrightChromium: () => OWN });
    expect(result.found).toBe(false);
    expect(findChromium({ ...machine([]), playwrightChromium: () => undefined }).found).toBe(false);
  });

  it("says in one line what to install on this system", () => {
    const message = (platform: NodeJS.Platform, osRelease = DEBIAN) => {
      const result = findChromium({ ...machine([], {}, platform), osRelease });
      if (result.found) throw new Error("found a browser on an empty machine");
      expect(result.message).not.toContain("\n");
      return result.message;
    };
    expect(message("linux")).toBe(
      "No Chromium found (CHROMIUM_PATH unset, no /usr/bin/chromium, no Playwright browser): install Debian's Chromium (`sudo apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome binary.",
    );
    expect(message("linux", UBUNTU)).toMatch(/: run `npx playwright install chromium`, or set CHROMIUM_PATH/);
    expect(message("darwin")).toMatch(
      /npx playwright install chromium`, or set CHROMIUM_PATH to Chrome \("\/Applications/,
    );
    expect(message("win32")).toMatch(/npx playwright install chromium`, or set CHROMIUM_PATH to Chrome \(C:\\Program/);
    expect(installAdvice("freebsd", "")).toBe(
      "run `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome binary.",
    );
  });

  it("looks only where WORKBENCH_BROWSER_SEARCH says (the test hook), and refuses a place it does not know", () => {
    const all = ["/usr/bin/chromium", OWN];
    expect(findChromium(machine(all, { WORKBENCH_BROWSER_SEARCH: "playwright" }))).toMatchObject({
      source: "playwright",
    });
    expect(findChromium(machine(all, { WORKBENCH_BROWSER_SEARCH: "CHROMIUM_PATH" })).found).toBe(false);
    expect(findChromium(machine(all, { WORKBENCH_BROWSER_SEARCH: "system,usr" }))).toEqual({
      found: false,
      message:
        "WORKBENCH_BROWSER_SEARCH names usr: it takes a comma-separated subset of CHROMIUM_PATH,system,playwright.",
    });
  });

  it("chromiumExecutablePath throws the same line when there is none", () => {
    expect(chromiumExecutablePath(machine(["/usr/bin/chromium"]))).toBe("/usr/bin/chromium");
    expect(() => chromiumExecutablePath(machine([]))).toThrow(/^No Chromium found .*apt-get install chromium/);
  });
});
