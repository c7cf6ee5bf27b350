// One workbench process per embedded database. A second `npm start` on the same DATA_DIR found the
// first one's PostgreSQL running, took it for one left by a killed run and used it; when it stopped
// (or failed to listen on the port the first one holds) it stopped that PostgreSQL under the first.
// The owner's pid is written in DATA_DIR; a file whose process is gone (a killed run) is taken over
// (docs/decisions/0037).
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isProcessAlive } from "../process-alive.ts";

export const OWNER_FILE = "workbench.pid";

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by another workbench process (pid ${pid}): stop that one ` +
        `first, or give this one a DATA_DIR of its own. If no workbench is running, delete ${path.join(dataDir, OWNER_FILE)}.`,
    );
    this.name = "DataDirInUseError";
  }
}

/** Makes this process DATA_DIR's owner, or throws DataDirInUseError naming the live one. Returns the release. */
export async function claimDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, OWNER_FILE);
  const mine = String(process.pid);
  const release = async () => {
    if ((await readFile(file, "utf8").catch(() => "")).trim() === mine) await rm(file, { force: true });
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, mine, { flag: "wx", mode: 0o600 });
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number.parseInt((await readFile(file, "utf8").catch(() => "")).trim(), 10);
    if (owner === process.pid) return release;
    if (Number.isInteger(owner) && owner > 0 && isProcessAlive(owner)) throw new DataDirInUseError(dataDir, owner);
    // Left by a process that is gone: taken over (exclusively again, in case another start does the same now).
    await rm(file, { force: true });
  }
  throw new Error(`could not take ${file}: another workbench is starting on the same DATA_DIR`);
}
