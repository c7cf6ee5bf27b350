// The delivery worker's one timer: it wakes the worker at the earliest due time still ahead
// (retries, holds, leases: `nextWakeInMs`), at most `maxSleepMs` from now (a safety re-poll in
// case a notification was lost), or a second after a failed claim or read. One timer per worker,
// not one per incident.
//
// The due-time read runs beside the claim pump, not in it (awaited, it held the pump for ~17 % of
// a drain's time), one at a time: calls while one runs coalesce into one more run after it, so the
// timer always ends up set from a fresh read; and at most every DUE_READ_MIN_GAP_MS, a call within
// the gap reading at its end.

/**
 * The due-time read runs at most this often (a clock jump reads at once). What it finds is in the
 * future (retries at 1 s and more, holds, leases), so reading a little later never makes them late;
 * read after every claim, it was a statement per claim under load.
 */
export const DUE_READ_MIN_GAP_MS = 250;

/** After a failed claim or due-time read, the worker tries again this much later. */
export const RETRY_AFTER_FAILURE_MS = 1_000;

export type DueTimerOptions = {
  /** How long until something falls due, in ms (null: nothing scheduled). */
  readNextWakeInMs: () => Promise<number | null>;
  wake: () => void;
  maxSleepMs: number;
  /** Returns how long to wait before the next try (default RETRY_AFTER_FAILURE_MS): an outage backs off. */
  onReadFailed: (err: Error) => number | void;
};

export type DueTimer = {
  /** Reads the next due time (now, or at the end of the gap) and sets the timer from it. */
  refresh: () => void;
  /** The next refresh reads at once (a clock jump made future due times due now). */
  forgetLastRead: () => void;
  /** Wakes the worker `delayMs` (default RETRY_AFTER_FAILURE_MS) from now instead of at the due time. */
  retrySoon: (delayMs?: number) => void;
  /** Whether a read is in flight or waits for the end of its gap. */
  readonly reading: boolean;
  /** Clears the timers; resolves once a read in flight has ended (it sets no timer then). */
  stop: () => Promise<void>;
};

export function createDueTimer({ readNextWakeInMs, wake, maxSleepMs, onReadFailed }: DueTimerOptions): DueTimer {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let query: Promise<void> | undefined;
  let readAgain = false;
  let lastReadMs = -Infinity;
  let deferredRead: NodeJS.Timeout | undefined;

  const retrySoon = (delayMs = RETRY_AFTER_FAILURE_MS) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(wake, delayMs);
  };

  async function setTimerFromRead() {
    const wakeIn = await readNextWakeInMs();
    if (stopped) return;
    clearTimeout(timer);
    const delay = wakeIn === null ? maxSleepMs : Math.min(wakeIn, maxSleepMs);
    timer = setTimeout(wake, delay + 1);
    timer.unref();
  }

  function refresh() {
    if (stopped) return;
    if (query) {
      readAgain = true;
      return;
    }
    const waitMs = lastReadMs + DUE_READ_MIN_GAP_MS - performance.now();
    if (waitMs > 0) {
      deferredRead ??= setTimeout(() => {
        deferredRead = undefined;
        refresh();
      }, waitMs);
      return;
    }
    clearTimeout(deferredRead);
    deferredRead = undefined;
    lastReadMs = performance.now();
    query = setTimerFromRead()
      .catch((err: Error) => {
        retrySoon(onReadFailed(err) ?? RETRY_AFTER_FAILURE_MS);
      })
      .finally(() => {
        query = undefined;
        if (readAgain) {
          readAgain = false;
          refresh();
        }
      });
  }

  return {
    refresh,
    forgetLastRead: () => {
      lastReadMs = -Infinity;
    },
    retrySoon,
    get reading() {
      return query !== undefined || deferredRead !== undefined;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(deferredRead);
      await query;
    },
  };
}
