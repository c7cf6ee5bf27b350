// One log line per outage, not one per failed query (docs/decisions/0055): a worker whose database
// went away says so once, backs off, and says once that it is back. A failure that is no outage
// is logged every time, as before.
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
  logger: Pick<Logger, "warn" | "info" | "error">,
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
        logger.warn({ reason: (err as Error)?.message }, `${what}: the database is unavailable; retrying with backoff`);
      }
      return Math.min(maxMs, minMs * 2 ** Math.min(failures - 1, 16));
    },
    succeeded() {
      if (since === undefined) return;
      logger.info(
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
