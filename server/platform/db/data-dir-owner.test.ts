import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimDataDir, DataDirInUseError, OWNER_FILE } from "./data-dir-owner.ts";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "data-dir-owner-"));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const ownerFile = () => path.join(dataDir, OWNER_FILE);

/** A process of the machine's: alive until killed, or one that has already exited. */
async function otherProcess(alive: boolean) {
  const child = spawn(process.execPath, ["-e", alive ? "setTimeout(() => {}, 60_000)" : ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once(alive ? "spawn" : "exit", resolve));
  return { pid: child.pid!, kill: () => child.kill("SIGKILL") };
}

describe("claimDataDir", () => {
  it("writes this process's pid, and its release removes it", async () => {
    const release = await claimDataDir(dataDir);
    expect(await readFile(ownerFile(), "utf8")).toBe(String(process.pid));
    await release();
    await expect(readFile(ownerFile(), "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("creates a data directory that does not exist yet", async () => {
    const nested = path.join(dataDir, "new", "dir");
    await claimDataDir(nested);
    expect(await readFile(path.join(nested, OWNER_FILE), "utf8")).toBe(String(process.pid));
  });

  it("refuses while another live process owns the directory, naming it", async () => {
    const other = await otherProcess(true);
    try {
      await writeFile(ownerFile(), String(other.pid));
      const claimed = claimDataDir(dataDir);
      await expect(claimed).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(claimed).rejects.toThrow(`in use by another workbench process (pid ${other.pid})`);
      expect(await readFile(ownerFile(), "utf8")).toBe(String(other.pid));
    } finally {
      other.kill();
    }
  });

  it("takes over a directory whose owner is gone (a killed run)", async () => {
    const gone = await otherProcess(false);
    await writeFile(ownerFile(), String(gone.pid));
    await claimDataDir(dataDir);
    expect(await readFile(ownerFile(), "utf8")).toBe(String(process.pid));
  });

  it("takes over a file that names no process", async () => {
    await writeFile(ownerFile(), "not a pid");
    await claimDataDir(dataDir);
    expect(await readFile(ownerFile(), "utf8")).toBe(String(process.pid));
  });

  it("is this process's already when it claims again, and a release leaves another owner's file alone", async () => {
    await claimDataDir(dataDir);
    const again = await claimDataDir(dataDir);
    await writeFile(ownerFile(), "12345678");
    await again();
    expect(await readFile(ownerFile(), "utf8")).toBe("12345678");
  });
});
