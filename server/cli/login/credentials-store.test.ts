// The CLI's credentials file: where it lives, its permissions (folder 0700, file 0600 whatever the
// umask and whatever was there before), atomic replacement, and which token and URL the other
// commands use (WORKBENCH_TOKEN and WORKBENCH_URL win; else the last login's).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { workbenchToken, workbenchUrl } from "../client.ts";
import {
  credentialsPath,
  findLogin,
  forgetLogin,
  readCredentials,
  saveLogin,
  workbenchKey,
  writeCredentials,
  type StoredLogin,
} from "./credentials-store.ts";

const login = (token: string): StoredLogin => ({
  token,
  tokenId: `id-${token}`,
  name: "CLI on laptop",
  member: "alice",
  role: "integrator",
  expiresAt: "2027-02-26T09:00:00.000Z",
  storedAt: "2026-11-28T09:00:00.000Z",
});
const mode = (p: string) => fs.statSync(p).mode & 0o777;

let home: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "wb-credentials-"));
  vi.stubEnv("XDG_CONFIG_HOME", path.join(home, "config"));
  vi.stubEnv("WORKBENCH_URL", undefined);
  vi.stubEnv("WORKBENCH_TOKEN", undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(home, { recursive: true, force: true });
});

describe("where the file is", () => {
  it("is $XDG_CONFIG_HOME/workbench/credentials.json, else ~/.config (a relative XDG_CONFIG_HOME is ignored)", () => {
    expect(credentialsPath({ XDG_CONFIG_HOME: "/x/conf" })).toBe("/x/conf/workbench/credentials.json");
    expect(credentialsPath({})).toBe(path.join(os.homedir(), ".config/workbench/credentials.json"));
    expect(credentialsPath({ XDG_CONFIG_HOME: "conf" })).toBe(
      path.join(os.homedir(), ".config/workbench/credentials.json"),
    );
  });

  it("keys a workbench by its URL without trailing slashes, query or fragment, host in lower case", () => {
    expect(workbenchKey("https://WB.example.com/")).toBe("https://wb.example.com");
    expect(workbenchKey("http://127.0.0.1:3000/team//?x=1#y")).toBe("http://127.0.0.1:3000/team");
    expect(() => workbenchKey("ftp://wb.example.com")).toThrow(/not an http\(s\) URL/);
  });
});

describe("permissions and atomic writes", () => {
  it("creates the folder 0700 and the file 0600 even with umask 000", () => {
    const old = process.umask(0);
    try {
      saveLogin("https://wb.example.com", login("wbt_a"));
    } finally {
      process.umask(old);
    }
    const file = credentialsPath();
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
  });

  it("tightens a folder and a file that were readable by others, by replacing the file (a new inode)", () => {
    const file = credentialsPath();
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.dirname(file), 0o755);
    fs.writeFileSync(file, JSON.stringify({ version: 1, workbenches: {} }), { mode: 0o644 });
    const before = fs.statSync(file).ino;
    saveLogin("https://wb.example.com", login("wbt_a"));
    expect(fs.statSync(file).ino).not.toBe(before);
    expect(mode(file)).toBe(0o600);
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["credentials.json"]); // no temporary file left
  });

  it("leaves the old file whole, and no temporary file, when writing the new one fails half-way", () => {
    saveLogin("https://wb.example.com", login("wbt_a"));
    const file = credentialsPath();
    const before = fs.readFileSync(file, "utf8");
    // A value JSON cannot write fails after the temporary file was opened, before the rename.
    const broken = { version: 1 as const, workbenches: { x: { ...login("wbt_b"), token: 1n as unknown as string } } };
    expect(() => writeCredentials(broken)).toThrow(/BigInt/);
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["credentials.json"]);
  });

  it("refuses a file that is not a credentials file, naming it", () => {
    const file = credentialsPath();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "{not json");
    expect(() => readCredentials()).toThrow(`${file} is not a workbench credentials file`);
  });
});

describe("one entry per workbench, and the current one", () => {
  it("stores per URL, makes the last login current, and moves current on when it is forgotten", () => {
    saveLogin("https://a.example.com/", login("wbt_a"));
    saveLogin("https://b.example.com", login("wbt_b"));
    expect(readCredentials().current).toBe("https://b.example.com");
    expect(findLogin("https://a.example.com")?.token).toBe("wbt_a");
    expect(saveLogin("https://a.example.com", login("wbt_a2"))?.token).toBe("wbt_a");
    expect(forgetLogin("https://a.example.com")?.token).toBe("wbt_a2");
    expect(readCredentials()).toMatchObject({ current: "https://b.example.com" });
    expect(findLogin("https://a.example.com")).toBeUndefined();
    expect(forgetLogin("https://a.example.com")).toBeUndefined();
  });
});

describe("what the other commands use", () => {
  it("uses the last login's URL and its token when WORKBENCH_URL and WORKBENCH_TOKEN are unset", () => {
    expect(workbenchUrl()).toBe("http://localhost:3000");
    expect(workbenchToken()).toBeUndefined();
    saveLogin("https://a.example.com", login("wbt_a"));
    expect(workbenchUrl()).toBe("https://a.example.com");
    expect(workbenchToken()).toBe("wbt_a");
  });

  it("warns once, on stderr, when others may read the file (and still uses it)", () => {
    saveLogin("https://a.example.com", login("wbt_a"));
    fs.chmodSync(credentialsPath(), 0o644);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(workbenchToken()).toBe("wbt_a");
      expect(workbenchToken()).toBe("wbt_a");
      expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([
        `workbench: warning: ${credentialsPath()} is readable by other users: run chmod 600 ${credentialsPath()}\n`,
      ]);
    } finally {
      stderr.mockRestore();
    }
  });

  it("lets WORKBENCH_URL choose the workbench (its stored token, if any) and WORKBENCH_TOKEN win", () => {
    saveLogin("https://a.example.com", login("wbt_a"));
    saveLogin("https://b.example.com", login("wbt_b"));
    vi.stubEnv("WORKBENCH_URL", "https://a.example.com/");
    expect(workbenchUrl()).toBe("https://a.example.com");
    expect(workbenchToken()).toBe("wbt_a");
    vi.stubEnv("WORKBENCH_URL", "https://c.example.com");
    expect(workbenchToken()).toBeUndefined();
    vi.stubEnv("WORKBENCH_TOKEN", "wbt_from_env");
    expect(workbenchToken()).toBe("wbt_from_env");
  });
});
