// One warning per outage for the whole process, not one per worker or failed query (docs/decisions/
// 0055): the database watch (database-watch.ts) says when an outage begins and ends. A worker whose
// database went away notes it once at debug level, backs off, and notes once that it is back. A
// failure that is no outage is logged every time, as an error.
import type { Logger } from "../logger.ts";
import { isDatabaseUnavailable } from "./database-unavailable.ts";

export type OutageLog = {
  /** A step failed: logged when it is no outage or the first of one; returns the delay before the next try. */
  failed: (err: unknown, message: string, fields?: Record<string, unknown>) => number;
  /** A step succeeded: ends an outage (one line: how long, how many failed tries). */
  succeeded: () => void;
  readonly inOutage: boolean;
};

export function createOutageLog(
  logger: Pick<Logger, "debug" | "error">,
  what: string,
  backoff: { minMs?: number; maxMs?: number } = {},
): OutageLog {
  const minMs = backoff.minMs ?? 250;
  const maxMs = backoff.maxMs ?? 5_000;
  let since: number | undefined;
  let failures = 0;
  return {
    failed(err, message, fields) {
      if (!isDatabaseUnavailable(err)) {
        logger.error({ ...fields, err }, message);
        return maxMs > 1_000 ? 1_000 : maxMs;
      }
      failures++;
      if (since === undefined) {
        since = performance.now();
        logger.debug(
          { reason: (err as Error)?.message },
          `${what}: the database is unavailable; retrying with backoff`,
        );
      }
      return Math.min(maxMs, minMs * 2 ** Math.min(failures - 1, 16));
    },
    succeeded() {
      if (since === undefined) return;
      logger.debug(
        { ms: Math.round(performance.now() - since), failedTries: failures },
        `${what}: the database is back`,
      );
      since = undefined;
      failures = 0;
    },
    get inOutage() {
      return since !== undefined;
    },
  };
}

/**
 * A step that fails now and then (a periodic purge, a NOTIFY, one integration's planning): a warning
 * each time, except when the database is unavailable, which the outage's own lines report (debug here).
 */
export function warnUnlessOutage(
  logger: Pick<Logger, "debug" | "warn">,
  err: unknown,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  if (isDatabaseUnavailable(err)) logger.debug({ ...fields, reason: (err as Error)?.message }, message);
  else logger.warn({ ...fields, err }, message);
}
