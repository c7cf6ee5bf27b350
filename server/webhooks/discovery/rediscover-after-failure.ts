// A failed delivery makes the service look at the receiver's /about again soon: a receiver that
// switched its declaration (a cutover to 3.x, routes removed) answers its old routes with 404, and
// waiting for the ten-minute refresh would leave its lanes failing meanwhile. At most once per
// integration per RATE_LIMIT_MS, so a receiver that is simply down is not asked on every retry.
// Per process: the deliveries a process attempts are the failures it sees.

/** The least time between two rediscoveries of one integration caused by failed deliveries. */
export const REDISCOVER_AFTER_FAILURE_MS = 30_000;

/** An attempt's outcome as `delivery:attempted` reports it: only HTTP 200 delivers. */
export const isFailedAttempt = (attempt: { status: number | null }) => attempt.status !== 200;

/** Decides, per integration, whether a failure now should rediscover it (pure but for its memory). */
export class RediscoveryLimiter {
  private readonly last = new Map<string, number>();

  constructor(private readonly minGapMs = REDISCOVER_AFTER_FAILURE_MS) {}

  /** True (and remembered) when the integration was not rediscovered for a failure in the last gap. */
  take(integrationKey: string, nowMs: number): boolean {
    const previous = this.last.get(integrationKey);
    if (previous !== undefined && nowMs - previous < this.minGapMs && nowMs >= previous) return false;
    this.last.set(integrationKey, nowMs);
    return true;
  }
}
