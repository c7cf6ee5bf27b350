// Where `workbench login` keeps its API tokens (decision 0053): $XDG_CONFIG_HOME/workbench/
// credentials.json (default ~/.config/workbench/), the folder 0700 and the file 0600, one entry per
// workbench URL and the URL of the last login (`current`). Written atomically: a temporary file of
// mode 0600 in the same folder, flushed, then renamed over the old one, so a reader sees the old
// file or the new one, never half of one, and the token is never readable by others, not even
// for a moment. WORKBENCH_TOKEN, when set, wins over the file (client.ts).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const ZStoredLogin = z.object({
  token: z.string().min(1).max(200),
  tokenId: z.string().max(100),
  name: z.string().max(100),
  member: z.string().max(100),
  role: z.string().max(20),
  expiresAt: z.string().max(40).nullable(),
  storedAt: z.string().max(40),
});
export type StoredLogin = z.infer<typeof ZStoredLogin>;

const ZCredentials = z.object({
  version: z.literal(1),
  current: z.string().max(2000).optional(),
  workbenches: z.record(z.string().max(2000), ZStoredLogin),
});
export type Credentials = z.infer<typeof ZCredentials>;

export class CredentialsFileError extends Error {}

export function credentialsPath(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec: a relative XDG_CONFIG_HOME is invalid and is ignored.
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".config");
  return path.join(base, "workbench", "credentials.json");
}

/** The key of a workbench: its URL without query, fragment or trailing slashes, host in lower case. */
export function workbenchKey(url: string): string {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new CredentialsFileError(`${url} is not an http(s) URL.`);
  return `${u.origin}${u.pathname}`.replace(/\/+$/, "");
}

export function readCredentials(file = credentialsPath()): Credentials {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, workbenches: {} };
    throw new CredentialsFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return ZCredentials.parse(JSON.parse(text));
  } catch {
    throw new CredentialsFileError(`${file} is not a workbench credentials file: remove it and log in again.`);
  }
}

export function writeCredentials(credentials: Credentials, file = credentialsPath()): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700); // mkdir's mode is masked by the umask and ignored when the folder exists
  const temporary = path.join(dir, `.credentials.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = fs.openSync(temporary, "wx", 0o600);
  try {
    fs.fchmodSync(fd, 0o600); // the umask cannot widen it, but make the mode explicit
    fs.writeFileSync(fd, `${JSON.stringify(credentials, null, 2)}\n`);
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temporary, file);
}

/** Stores (or replaces) the login of this workbench and makes it the current one; returns the one it replaced. */
export function saveLogin(url: string, login: StoredLogin, file = credentialsPath()): StoredLogin | undefined {
  const credentials = readCredentials(file);
  const key = workbenchKey(url);
  const previous = credentials.workbenches[key];
  writeCredentials({ ...credentials, current: key, workbenches: { ...credentials.workbenches, [key]: login } }, file);
  return previous;
}

/** Removes the login of this workbench; the current one moves to another stored workbench, if any. */
export function forgetLogin(url: string, file = credentialsPath()): StoredLogin | undefined {
  const credentials = readCredentials(file);
  const key = workbenchKey(url);
  const removed = credentials.workbenches[key];
  if (!removed) return undefined;
  const workbenches = Object.fromEntries(Object.entries(credentials.workbenches).filter(([k]) => k !== key));
  const current = credentials.current === key ? Object.keys(workbenches)[0] : credentials.current;
  writeCredentials({ version: 1, current, workbenches }, file);
  return removed;
}

export function findLogin(url: string, file = credentialsPath()): StoredLogin | undefined {
  return readCredentials(file).workbenches[workbenchKey(url)];
}

let warned = false;
/**
 * The file as the other commands read it: a broken one is named once on stderr and treated as empty;
 * one that others may read (chmod'ed, copied) is used, with a warning once, as ssh warns of a key.
 */
function readForUse(): Credentials | undefined {
  try {
    const credentials = readCredentials();
    const file = credentialsPath();
    if (!warned && process.platform !== "win32" && fs.existsSync(file) && (fs.statSync(file).mode & 0o077) !== 0) {
      process.stderr.write(`workbench: warning: ${file} is readable by other users: run chmod 600 ${file}\n`);
      warned = true;
    }
    return credentials;
  } catch (error) {
    if (!warned) process.stderr.write(`workbench: warning: ${(error as Error).message}\n`);
    warned = true;
    return undefined;
  }
}

/** The workbench of the last `workbench login` (used when WORKBENCH_URL is unset). */
export function lastLoginUrl(): string | undefined {
  return readForUse()?.current;
}

/** The stored token of this workbench (used when WORKBENCH_TOKEN is unset). */
export function storedToken(url: string): string | undefined {
  try {
    return readForUse()?.workbenches[workbenchKey(url)]?.token;
  } catch {
    return undefined; // not an http(s) URL: nothing stored for it
  }
}
