// An ephemeral workbench for one Playwright worker: `workbench up` as a child
// process holding an IPC channel, so the workbench (server, embedded PostgreSQL,
// temporary data directory) goes when the worker goes — at teardown, or when the
// worker is killed and the channel closes.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The seed's fixed ids and the partner clients' credentials (docs/seed-data.md). */
export type WorkbenchSeed = {
  /** Agency ids, for `agency_context` and `partnerApi.as({ agencyId })`. */
  agencies: { northPsap: string; centralEms: string; fireRescue: string; southPsap: string };
  /** User ids (the users sign in by name: dispatcher.north, dispatcher.ems, dispatcher.fire, …). */
  users: {
    dispatcherNorth: string;
    dispatcherEms: string;
    dispatcherFire: string;
    lockedUser: string;
    jSmithLower: string;
    jSmithUpper: string;
  };
  /** partner-cad holds every inbound scope; partner-readonly only agency.read. */
  clients: {
    partnerCad: { clientId: string; clientSecret: string };
    partnerReadonly: { clientId: string; clientSecret: string };
  };
};

/**
 * What `workbench up` prints on its ready line (one JSON line on stdout): where the workbench is
 * and the seed's ids and credentials. A copy of the CLI's (server/cli/commands/ephemeral.ts),
 * guarded by server-copies.test.ts.
 */
export type ReadyLine = WorkbenchSeed & {
  event: "ready";
  /** Its origin. */
  url: string;
  /** {auth_url}: /connect/token, the JWKS. */
  authUrl: string;
  /** {base_url}/v1, the inbound API. */
  baseUrl: string;
  /** GET answers 200 with the database's state while the workbench and its database are up, 503 when the database is not. */
  healthUrl: string;
  /** The `workbench up` process: SIGTERM stops the workbench. */
  pid: number;
  /** Its temporary data directory, deleted when it stops. */
  dataDir: string;
};

/** A workbench the kit started: its ready line, and `stop()`, which resolves once it is gone. */
export type EphemeralWorkbench = ReadyLine & { stop: () => Promise<void> };

const READY_TIMEOUT_MS = 240_000;

/**
 * The `workbench` command to run: WORKBENCH_CLI, else the CLI of the workbench checkout this kit
 * sits in (packages/playwright → packages/cli), else `workbench` from the project's node_modules/.bin.
 */
export function workbenchCli(): { command: string; args: string[] } {
  if (process.env.WORKBENCH_CLI) return { command: process.env.WORKBENCH_CLI, args: [] };
  const here = path.dirname(fileURLToPath(import.meta.url));
  const sibling = path.resolve(here, "../../cli/bin/workbench.mjs");
  if (existsSync(sibling)) return { command: process.execPath, args: [sibling] };
  const local = path.resolve("node_modules/.bin/workbench");
  if (existsSync(local)) return { command: local, args: [] };
  throw new Error(
    "No workbench CLI found: set WORKBENCH_CLI to the `workbench` command, or WORKBENCH_URL to a running workbench.",
  );
}

/**
 * Starts `workbench up` and resolves with its ready line (5–20 s; a build first, when the
 * checkout has none). `log` gets the workbench's log lines (default: stderr, prefixed [workbench]).
 */
export async function startEphemeralWorkbench(
  options: { log?: (line: string) => void } = {},
): Promise<EphemeralWorkbench> {
  const { command, args } = workbenchCli();
  const child = spawn(command, [...args, "up"], { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const log = options.log ?? ((line: string) => process.stderr.write(`[workbench] ${line}\n`));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => chunk.split("\n").filter(Boolean).forEach(log));
  const ready = await readyLineOf(child);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }));
  return { ...ready, stop } satisfies EphemeralWorkbench;
}

function readyLineOf(child: ChildProcess): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error(`workbench up printed no ready line within ${READY_TIMEOUT_MS / 1000} s`));
    }, READY_TIMEOUT_MS);
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const end = out.indexOf("\n");
      if (end < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(out.slice(0, end)) as ReadyLine);
      } catch {
        reject(new Error(`workbench up printed something other than its ready line: ${out.slice(0, 200)}`));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`workbench up exited with ${code} before its ready line (its log is above)`));
    });
  });
}
