// The pool's connect timeout tells a slow database from a gone one (docs/decisions/0055). pg gives
// up after `connectionTimeoutMillis` in two ways, both read as an outage by database-unavailable.ts:
// a query that found every connection lent out and waited in the queue ("timeout exceeded when
// trying to connect"), and a new connection the server did not finish opening ("Connection
// terminated due to connection timeout"). That is right when the server is stuck (hung, or a cut
// network: nothing comes back), and wrong when it is only slow (a burst on a loaded machine: lent
// connections come back and new ones open, just not within the timeout), which turned bursts into
// 503s.
//
// So a wait that timed out while the pool made progress within the timeout (a connection released
// without an outage error, or a new one opened) waits again, at the back of the queue, up to
// BUSY_WAIT_MAX_MS in all; one that saw no progress is an outage, as before. A server that is gone
// fails faster than either: its connections fail, and new ones are refused.
import pg from "pg";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

/** The longest a query waits on a busy (not stuck) pool before it is answered as unavailable. */
export const BUSY_WAIT_MAX_MS = 30_000;
const TIMED_OUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

type ConnectCallback = (
  err: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

export class PatientPool extends pg.Pool {
  #lastProgressMs = -Infinity;
  readonly #busyWaitMaxMs: number;

  constructor(config: pg.PoolConfig & { busyWaitMaxMs?: number }) {
    const { busyWaitMaxMs = BUSY_WAIT_MAX_MS, ...poolConfig } = config;
    super(poolConfig);
    this.#busyWaitMaxMs = busyWaitMaxMs;
    this.on("release", (err: unknown) => {
      if (!err || !isDatabaseUnavailable(err)) this.#lastProgressMs = performance.now();
    });
    this.on("connect", () => (this.#lastProgressMs = performance.now()));
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const startedMs = performance.now();
    const waitedOn = (err: unknown): boolean => {
      if (!(err instanceof Error) || !TIMED_OUT.test(err.message)) return false;
      const now = performance.now();
      const timeoutMs = this.options.connectionTimeoutMillis ?? 0;
      return now - this.#lastProgressMs <= timeoutMs && now - startedMs < this.#busyWaitMaxMs;
    };
    const attempt = (): Promise<pg.PoolClient> =>
      super.connect().catch((err: unknown) => (waitedOn(err) ? attempt() : Promise.reject(err)));
    const connected = attempt();
    if (!callback) return connected;
    connected.then(
      (client) =>
        callback(undefined, client, (release?: unknown) => client.release(release as Error | boolean | undefined)),
      (err: Error) => callback(err, undefined, () => {}),
    );
  }
}
