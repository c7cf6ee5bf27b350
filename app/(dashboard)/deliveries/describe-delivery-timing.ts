// PURE: the detail's timing facts in words. `nowMs` is the workbench clock's now (null until the
// clock is read); spec, Delivery rules 2 and 3: a lane is sent in order, an event is retried for one
// hour after it was produced, and one past its hour expires when it is next claimed.
import type { StatusFacts } from "@/server/webhooks/admin/describe-delivery-status";

export type TimingFacts = Pick<StatusFacts, "state" | "nextAttemptAt" | "waitingBehind"> & {
  /** producedAt + the one-hour window. */
  expiresAt: string;
};

/** The expiry's label, and whether it counts down (open and its hour not yet past) or is a time. */
export function describeExpiry(d: TimingFacts, nowMs: number | null): { label: string; countdown: boolean } {
  const open = d.state === "pending" || d.state === "delivering";
  return {
    label: open ? "Expires" : "Expiry (1 h window)",
    countdown: open && nowMs !== null && Date.parse(d.expiresAt) > nowMs,
  };
}

/** When the next attempt goes: a time (`at`), or words when none is scheduled. */
export function describeNextAttempt(d: TimingFacts, nowMs: number | null): { at: string } | { text: string } {
  if (d.state === "pending" && !d.waitingBehind && d.nextAttemptAt && nowMs !== null)
    return Date.parse(d.expiresAt) <= nowMs
      ? { text: "none: past its hour, expires when claimed" }
      : { at: d.nextAttemptAt };
  if (d.state === "pending" && d.waitingBehind) return { text: "after the head" };
  return { text: "none" };
}

/** Why a delivery without attempts has no request to show. */
export function describeUnsent(d: Pick<TimingFacts, "state" | "waitingBehind">): string {
  if (d.state === "expired") return "Never sent: it expired one hour after it was produced, before its turn came.";
  if (d.state === "superseded")
    return "Never sent: the receiver cut over to another major version before its turn came.";
  return d.waitingBehind
    ? "Not sent yet: it waits behind its lane's head."
    : "Not sent yet: its first attempt is queued.";
}
