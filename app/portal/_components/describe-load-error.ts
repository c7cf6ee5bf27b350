// How a portal view says that loading failed, and how soon it asks again.
/** A failed request in words: a fetch that never got an answer says so rather than "Failed to fetch". */
export function describeLoadError(error: { message: string; data?: { code?: string } | null }): string {
  if (error.data?.code === "UNAUTHORIZED") return "Your portal session has ended: sign in again.";
  if (/failed to fetch|networkerror|load failed/i.test(error.message))
    return "The workbench did not answer (no connection).";
  return error.message;
}

/** Polling again after a failure: slower than the live second, so an outage is not hammered. */
export const RETRY_AFTER_FAILURE_MS = 5_000;
