// PURE retry decision (platform-interface.md, Delivery rules 2 and 3; CONTRIBUTING.md,
// 'Pure decisions'): the first retry one second after the first failure, the delay
// doubling each time, for one hour measured from the moment the event was
// produced. The last retry is capped at the window's end, so a stalled head is
// abandoned exactly at producedAt + 1 h, which unblocks the next event of the lane. The numbers are
// the contract's (webhook-contracts/delivery-rules.ts), which the AsyncAPI document states too.
import { FIRST_RETRY_DELAY_MS, RETRY_WINDOW_MS } from "../../webhook-contracts/delivery-rules.ts";

export type RetryDecision = { retryAt: Date } | { expire: true };

/** `attempt` is the number of the attempt that just failed (1 for the first). */
export function decideRetry(attempt: number, producedAt: Date, now: Date): RetryDecision {
  const expiresAt = producedAt.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= expiresAt) return { expire: true };
  // 2^30 s is beyond any window: clamp the exponent so the number stays finite.
  const delay = FIRST_RETRY_DELAY_MS * 2 ** Math.min(Math.max(attempt - 1, 0), 30);
  return { retryAt: new Date(Math.min(now.getTime() + delay, expiresAt)) };
}
