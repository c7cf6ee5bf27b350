import { describe, expect, it } from "vitest";
import { cliHostname } from "./log-in.ts";
import { browserOpener } from "./open-browser.ts";

describe("browserOpener", () => {
  it("opens with the platform's opener, and not at all without a display or with BROWSER=none", () => {
    expect(browserOpener("linux", { DISPLAY: ":0" })?.command).toBe("xdg-open");
    expect(browserOpener("linux", { WAYLAND_DISPLAY: "wayland-0" })?.command).toBe("xdg-open");
    expect(browserOpener("linux", {})).toBeUndefined(); // over SSH: the link is printed
    expect(browserOpener("darwin", {})?.args("https://x.example/a")).toEqual(["https://x.example/a"]);
    expect(browserOpener("win32", {})?.command).toBe("rundll32");
    expect(browserOpener("darwin", { BROWSER: "none" })).toBeUndefined();
  });
});

describe("cliHostname", () => {
  it.each([
    ["build-box.local", "build-box.local"],
    ["Jo's MacBook Pro", "Jo-s-MacBook-Pro"],
    ["-._x", "x"],
    ["", "unknown-host"],
    ["a".repeat(100), "a".repeat(64)],
  ])("%s → %s", (raw, expected) => {
    expect(cliHostname(raw)).toBe(expected);
  });
});
