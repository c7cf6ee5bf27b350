// Data directories of ephemeral workbenches (`workbench up`, `--ephemeral`):
// created under the system's temporary folder with a fixed prefix, and only a
// directory of that shape is ever deleted, so a mistaken DATA_DIR is never removed.
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const PREFIX = "workbench-ephemeral-";

export async function createEphemeralDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), PREFIX));
  // The embedded PostgreSQL runs as the postgres user when we are root: it must be able to reach the folder.
  await chmod(dir, 0o711);
  return dir;
}

export function isEphemeralDataDir(dir: string): boolean {
  const resolved = path.resolve(dir);
  return path.dirname(resolved) === path.resolve(os.tmpdir()) && path.basename(resolved).startsWith(PREFIX);
}

/** Deletes an ephemeral data directory; anything else is left alone. */
export async function removeEphemeralDataDir(dir: string): Promise<void> {
  if (isEphemeralDataDir(dir)) await rm(dir, { recursive: true, force: true });
}
