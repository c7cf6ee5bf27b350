// One LISTEN connection that outlives database blips: when its connection
// fails (a restart, a network drop, pg_terminate_backend), it connects again
// with backoff and LISTENs again, then calls `onReconnect`, because every
// notification sent while it was away is lost: the caller catches up there
// (the delivery worker claims, the clock re-reads its row). Without it, a
// worker whose listener died heard no other process again until restarted.
import pg from "pg";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

export type ChannelListener = { stop: () => Promise<void> };

export type ListenOptions = {
  databaseUrl: string;
  channel: string;
  onNotification: (payload: string | undefined) => void;
  /** After a reconnect (not the first connect): notifications may have been missed. */
  onReconnect: () => void;
  /** The connection is lost (with or without an error): from now until onReconnect, nothing is heard. */
  onDisconnect?: () => void;
  /**
   * A failure that is no database outage. An outage is the database watch's to report, once for the
   * process (docs/decisions/0055): a listener losing its connection to one is not news of its own.
   */
  onError?: (error: Error) => void;
  /** Appended to the connection's application_name (`workbench listen {channel} {tag}`): who listens. */
  tag?: string;
  /** First retry delay; it doubles per failed try up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
};

/** The application_name of a listener's connection (visible in pg_stat_activity). */
export const listenerName = (channel: string, tag?: string) =>
  tag ? `workbench listen ${channel} ${tag}` : `workbench listen ${channel}`;

/** PostgreSQL identifiers only: the channel is put in the LISTEN statement as is. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** The first connect is awaited (a start-up failure is the caller's); later ones run in the background until stop(). */
export async function listenToChannel(options: ListenOptions): Promise<ChannelListener> {
  const { channel } = options;
  if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  const minBackoffMs = options.minBackoffMs ?? 100;
  const maxBackoffMs = options.maxBackoffMs ?? 5_000;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  /** Reconnects are for a listener that once listened: a failed first connect is the caller's error, with nothing left running. */
  let started = false;

  const connect = async () => {
    const c = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: listenerName(channel, options.tag),
      keepAlive: true,
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (!stopped) options.onDisconnect?.();
      if (error && !isDatabaseUnavailable(error)) options.onError?.(error);
      c.end().catch(() => {});
      if (client === c) client = undefined;
      scheduleReconnect();
    };
    c.on("notification", (msg) => {
      if (msg.channel === channel) options.onNotification(msg.payload);
    });
    c.on("error", onLost);
    c.on("end", () => onLost());
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (error) {
      lost = true; // the caller retries (or, on the first connect, fails)
      await c.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      lost = true;
      await c.end().catch(() => {});
      return;
    }
    client = c;
  };

  const scheduleReconnect = () => {
    if (stopped || !started || retry) return;
    const delay = Math.min(maxBackoffMs, minBackoffMs * 2 ** failures);
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          failures = 0;
          if (!stopped) options.onReconnect();
        },
        (error: Error) => {
          failures++;
          // An outage is the watch's to report; any other failure is reported each time.
          if (!isDatabaseUnavailable(error)) options.onError?.(error);
          scheduleReconnect();
        },
      );
    }, delay);
    retry.unref();
  };

  await connect();
  started = true;
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
