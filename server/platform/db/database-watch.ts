// The process's eye on its database (docs/decisions/0055). Every second it asks: is the embedded
// postmaster still running (a killed or crashed one is started again on the same data directory),
// and does the database answer `SELECT 1` on a connection of its own. What it finds is what
// /api/health reports (up, down, restarting; ready) and what the dashboard's banner shows, and it
// logs one line when an outage starts and one when it ends. An embedded server that cannot be
// started again is fatal: `onFatal` gets the reason (main.ts logs it and exits non-zero, for a
// supervisor to restart the process) instead of the workbench living on half-alive.
import pg from "pg";
import type { Logger } from "../logger.ts";

export type DatabaseState = "up" | "down" | "restarting";

export type DatabaseHealth = {
  readonly state: DatabaseState;
  /** performance.now() when the current outage began (undefined while up). */
  readonly downSinceMs: number | undefined;
  /** Outages seen since start. */
  readonly outages: number;
};

export type EmbeddedControl = { isRunning: () => Promise<boolean>; restart: () => Promise<void> };

export type DatabaseWatchOptions = {
  databaseUrl: string;
  logger: Pick<Logger, "warn" | "info" | "error">;
  /** The embedded server: restarted when its postmaster is gone. */
  embedded?: EmbeddedControl;
  onFatal: (reason: string) => void;
  intervalMs?: number;
  /** Attempts at starting a stopped embedded server before giving up (spaced 1, 2, 4… s, at most 5 s). */
  restartAttempts?: number;
};

export type DatabaseWatch = DatabaseHealth & { stop: () => Promise<void> };

const PROBE_TIMEOUT_MS = 2_000;

export function startDatabaseWatch(options: DatabaseWatchOptions): DatabaseWatch {
  const { logger, embedded } = options;
  const intervalMs = options.intervalMs ?? 1_000;
  const restartAttempts = options.restartAttempts ?? 6;
  let state: DatabaseState = "up";
  let downSinceMs: number | undefined;
  let outages = 0;
  let stopped = false;
  let probe: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();
  let checking = false;

  const goDown = (next: DatabaseState, reason: string) => {
    if (state === "up") {
      outages++;
      downSinceMs = performance.now();
      logger.warn({ reason }, "database unavailable: requests answer 503 and workers wait until it is back");
    }
    state = next;
  };
  const goUp = () => {
    if (state === "up") return;
    const ms = Math.round(performance.now() - (downSinceMs ?? performance.now()));
    logger.info({ ms }, "database available again");
    state = "up";
    downSinceMs = undefined;
  };

  async function answers(): Promise<string | null> {
    try {
      if (!probe) {
        const c = new pg.Client({
          connectionString: options.databaseUrl,
          connectionTimeoutMillis: PROBE_TIMEOUT_MS,
          query_timeout: PROBE_TIMEOUT_MS,
          application_name: "workbench database watch",
          keepAlive: true,
        });
        // The probe's connection lost between ticks (a backend killed, the postmaster resetting every
        // connection after a crash): look at once rather than at the next tick, which could come after
        // a quick crash recovery and miss the outage.
        c.on("error", () => {
          if (probe === c) probe = undefined;
          c.end().catch(() => {});
          setImmediate(runTick);
        });
        probe = c;
        await c.connect();
      }
      await probe.query("SELECT 1");
      return null;
    } catch (error) {
      probe?.end().catch(() => {});
      probe = undefined;
      return (error as Error).message || String(error);
    }
  }

  async function restartEmbedded(control: EmbeddedControl) {
    goDown("restarting", "the embedded PostgreSQL stopped (its postmaster is gone)");
    logger.warn("embedded PostgreSQL stopped; starting it again on the same data directory");
    let lastError = "";
    for (let attempt = 1; attempt <= restartAttempts && !stopped; attempt++) {
      try {
        await control.restart();
        logger.info({ attempt }, "embedded PostgreSQL started again");
        return;
      } catch (error) {
        lastError = (error as Error).message;
        if (await control.isRunning().catch(() => false)) return;
        if (attempt < restartAttempts)
          await new Promise((r) => setTimeout(r, Math.min(5_000, 1_000 * 2 ** (attempt - 1))));
      }
    }
    if (!stopped) {
      stopped = true;
      options.onFatal(
        `the embedded PostgreSQL could not be started again after ${restartAttempts} attempts: ${lastError}`,
      );
    }
  }

  async function check() {
    if (embedded && !(await embedded.isRunning().catch(() => true))) await restartEmbedded(embedded);
    if (stopped) return;
    const failure = await answers();
    if (failure === null) goUp();
    else goDown("down", failure);
  }

  /** One check now, unless one is under way (it sees the same thing); the next is intervalMs after it. */
  function runTick() {
    if (stopped || checking) return;
    clearTimeout(timer);
    checking = true;
    tick = check()
      .catch((error: Error) => logger.error({ err: error }, "database watch failed"))
      .finally(() => {
        checking = false;
        schedule();
      });
  }
  function schedule() {
    if (stopped) return;
    timer = setTimeout(runTick, intervalMs);
    timer.unref();
  }
  schedule();

  return {
    get state() {
      return state;
    },
    get downSinceMs() {
      return downSinceMs;
    },
    get outages() {
      return outages;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await tick;
      await probe?.end().catch(() => {});
    },
  };
}
