// The one-hour window of an outbox row (platform-interface.md, Delivery rule 2: "for one hour
// measured from the moment the service produced the event"): the deliverer expires a head past it,
// the planner never plans a held change past it, the inspector and the exports show where it ends.
import { RETRY_WINDOW_MS } from "../../webhook-contracts/delivery-rules.ts";

/** When an event produced at `producedAt` is abandoned (expired) if not delivered by then. */
export const expiresAtOf = (producedAt: Date): Date => new Date(producedAt.getTime() + RETRY_WINDOW_MS);

/** Whether an event may no longer be attempted at `now` (claimed heads past their window expire unsent). */
export function isExpired(producedAt: Date, now: Date): boolean {
  return now.getTime() >= producedAt.getTime() + RETRY_WINDOW_MS;
}
