// A throwaway workbench for one CI job or one test worker: its own temporary
// data directory, free ports, the compiled server as a child process. Nothing is
// left behind: the child holds an IPC channel to its parent and shuts down (and
// deletes its data directory) when that channel closes, so even a SIGKILLed
// parent leaves no server, no PostgreSQL and no data behind.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { AGENCY, USER } from "../../directory/seed-ids.ts";
import { createEphemeralDataDir, removeEphemeralDataDir } from "../../platform/ephemeral-data-dir.ts";
import { SERVER_NODE_OPTIONS } from "../../platform/server-node-options.ts";
import { isChildReport } from "../../platform/child-report.ts";

const READY_TIMEOUT_MS = 180_000;
/** An ephemeral workbench is local and self-contained: settings of the caller's own workbench must not leak in. */
const INHERITED_SETTINGS_DROPPED = [
  "DATABASE_URL",
  "WORKBENCH_ACCESS",
  "AUTH_URL",
  "BASE_URL",
  "PORTAL_URL",
  "ALLOWED_HOSTS",
  "SEED_ON_EMPTY",
  "DELIVERY_WORKERS",
];

export type EphemeralWorkbench = {
  url: string;
  pid: number;
  dataDir: string;
  /** What a CI step needs to talk to it: ids and credentials of the seed. */
  seed: typeof EPHEMERAL_SEED;
  /** Stops the server (graceful: its PostgreSQL too) and removes the data directory. */
  stop: () => Promise<void>;
  /** Resolves when the server exits on its own. */
  exited: Promise<number | null>;
};

export const EPHEMERAL_SEED = {
  agencies: AGENCY,
  users: USER,
  clients: {
    partnerCad: { clientId: "partner-cad", clientSecret: "partner-cad-secret" },
    partnerReadonly: { clientId: "partner-readonly", clientSecret: "partner-readonly-secret" },
  },
} as const;

/** The workbench's checkout (or installed package): the folder whose package.json names it. */
export function workbenchRoot(from = import.meta.dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "incident-platform-workbench"
    )
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`no incident-platform-workbench package above ${from}`);
  }
}

/** A port nothing listens on now (the kernel's choice), on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Ports picked by the kernel can be taken by another process before the child listens: tries of fresh ones. */
const PORT_TRIES = 3;

export async function startEphemeralWorkbench(
  options: {
    port?: number;
    log?: (line: string) => void;
    /** Where the ports come from (tests); the kernel's free ones by default. */
    pickPort?: () => Promise<number>;
  } = {},
): Promise<EphemeralWorkbench> {
  const root = workbenchRoot();
  const log = options.log ?? (() => {});
  await buildIfStale(root, log);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(root, options);
    } catch (error) {
      // A port given by the caller is theirs to change; one we picked, we pick again.
      if (!(error instanceof PortTaken) || options.port !== undefined || attempt >= PORT_TRIES) throw error;
      log(`a port picked for the workbench was taken meanwhile; trying other ports (${attempt + 1} of ${PORT_TRIES})`);
    }
  }
}

class PortTaken extends Error {}

async function startOnce(
  root: string,
  options: { port?: number; pickPort?: () => Promise<number> },
): Promise<EphemeralWorkbench> {
  const pickPort = options.pickPort ?? freePort;
  const dataDir = await createEphemeralDataDir();
  const port = options.port ?? (await pickPort());
  const url = `http://localhost:${port}`;
  const entry = [...SERVER_NODE_OPTIONS, "--enable-source-maps", path.join(root, "dist/server/launch.cjs")];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...withoutKeys(process.env, INHERITED_SETTINGS_DROPPED),
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await pickPort()),
      WORKBENCH_EPHEMERAL: "true",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    },
    // Its log goes to our stderr: stdout is the caller's (one machine-readable ready line).
    stdio: ["ignore", 2, 2, "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = once(async () => {
    await stopChild(child, exited);
    await removeEphemeralDataDir(dataDir);
  });
  try {
    await waitUntilReady(child, exited, url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, dataDir, seed: EPHEMERAL_SEED, stop, exited };
}

async function buildIfStale(root: string, log: (line: string) => void) {
  const child = spawn(process.execPath, [path.join(root, "scripts/build-if-stale.cjs")], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => chunk.split("\n").filter(Boolean).forEach(log));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error("building the workbench failed (see above)");
}

/**
 * Ready when the child itself says so over its IPC channel (server/main.ts), not when something
 * answers on its port: another process that took the port between our pick and the child's listen
 * would answer too, and a caller would be handed someone else's workbench.
 */
function waitUntilReady(child: ChildProcess, exited: Promise<number | null>, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the ephemeral workbench on ${url} was not ready within ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    );
    let portTaken = false;
    child.on("message", (message: unknown) => {
      if (!isChildReport(message)) return;
      if (message.event === "ready") {
        clearTimeout(timer);
        resolve();
      } else portTaken = message.portTaken;
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(
        portTaken
          ? new PortTaken(`a port of the ephemeral workbench on ${url} was taken by another process`)
          : new Error("the ephemeral workbench exited before it was ready (see its output above)"),
      );
    });
  });
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const force = setTimeout(() => child.kill("SIGKILL"), 60_000);
  await exited;
  clearTimeout(force);
}

function withoutKeys(env: NodeJS.ProcessEnv, keys: string[]): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const k of keys) delete copy[k];
  return copy;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
