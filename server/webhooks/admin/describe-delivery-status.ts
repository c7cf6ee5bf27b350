// PURE (CONTRIBUTING.md, 'Pure decisions'): a delivery's state in words that say why, as the
// inspector's list, its detail and the CLI show it. "pending" alone hid two different things: a
// failing head retrying on its backoff, and the events of the same lane waiting behind it (spec,
// Delivery rules 2 and 3: one lane, strictly in order; expiry one hour after production).
// The server supplies the facts (state, attempts, next attempt, the lane's head); `nowMs` is the
// workbench clock's now, so "next in 8 s" counts down on the client without a query.

export type StatusAttempt = { status: number | null; error: string | null };
export type StatusFacts = {
  state: "pending" | "delivering" | "delivered" | "expired" | "superseded";
  producedAt: string;
  nextAttemptAt: string | null;
  attempts: StatusAttempt[];
  /** The Service-Request-Id of the lane's unfinished head when this event waits behind it, else null. */
  waitingBehind: string | null;
};
export type StatusTone = "success" | "warning" | "danger" | "info" | "neutral";
export type DeliveryStatus = { label: string; tone: StatusTone };

/** Spec, Delivery rule 3: an event is retried for one hour after it was produced. */
export const DELIVERY_WINDOW_MS = 3_600_000;

/** An attempt accepted the delivery: only 200 does (spec, "Webhook receiver routes"). */
export const isAccepted = (a: StatusAttempt) => a.status === 200;

/** "503", "timeout": what one attempt came back with, short enough for a column. */
export function attemptOutcome(a: StatusAttempt): string {
  if (a.status !== null) return String(a.status);
  if (!a.error) return "no response";
  const word = a.error.split(/[:(]/)[0]!.trim();
  return word.length > 18 ? `${word.slice(0, 17)}…` : word || "error";
}

/** The attempts as their outcomes, in order of first appearance: "7 × 503, 1 × 200"; none: "—". */
export function summarizeAttempts(attempts: StatusAttempt[]): string {
  const counts = new Map<string, number>();
  for (const a of attempts) {
    const key = attemptOutcome(a);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts.size ? [...counts].map(([k, n]) => `${n} × ${k}`).join(", ") : "—";
}

/** 8_000 → "8 s", 300_000 → "5 min", 3_600_000 → "1 h", 3_780_000 → "1 h 3 min" (whole units, rounded down). */
export function span(ms: number): string {
  const s = Math.floor(ms / 1_000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

export function describeDeliveryStatus(d: StatusFacts, nowMs: number | null): DeliveryStatus {
  const n = d.attempts.length;
  const last = d.attempts.at(-1);
  switch (d.state) {
    case "delivered":
      return { label: n > 1 ? `delivered on attempt ${n}` : "delivered", tone: "success" };
    case "expired":
      return n === 0
        ? { label: `expired unsent after ${span(DELIVERY_WINDOW_MS)}`, tone: "danger" }
        : {
            label: `expired after ${n} attempt${n === 1 ? "" : "s"} (last ${attemptOutcome(last!)})`,
            tone: "danger",
          };
    case "superseded":
      // Versioning rule 3, decision 0049: the receiver's accepted /about declares another major version.
      return n === 0
        ? { label: "superseded at cutover (unsent)", tone: "neutral" }
        : {
            label: `superseded at cutover after ${n} attempt${n === 1 ? "" : "s"} (last ${attemptOutcome(last!)})`,
            tone: "neutral",
          };
    case "delivering":
      return { label: `sending (attempt ${n + 1})`, tone: "info" };
    case "pending":
      return describePending(d, nowMs);
  }
}

function describePending(d: StatusFacts, nowMs: number | null): DeliveryStatus {
  const n = d.attempts.length;
  const last = d.attempts.at(-1);
  const expiresMs = Date.parse(d.producedAt) + DELIVERY_WINDOW_MS;
  const overdue = nowMs !== null && nowMs >= expiresMs;
  if (d.waitingBehind)
    return {
      label: `waiting behind ${d.waitingBehind.slice(0, 8)}${overdue ? " (past its hour: expires next)" : ""}`,
      tone: "neutral",
    };
  // Past its hour but not yet expired: the worker expires a head when it claims it (after a clock
  // jump, a moment later), so it must not read as scheduled in the past.
  if (overdue)
    return {
      label: `expiring: ${n ? `last ${attemptOutcome(last!)}, ` : "unsent, "}past its ${span(DELIVERY_WINDOW_MS)}`,
      tone: "danger",
    };
  const next = d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : null;
  const when = next === null || nowMs === null ? null : next - nowMs;
  const due = when === null ? "" : when < 1_000 ? "due now" : `next in ${span(when)}`;
  if (n === 0)
    return { label: due && due !== "due now" ? `scheduled (${due})` : "queued (first attempt)", tone: "neutral" };
  return { label: `retrying (${attemptOutcome(last!)}${due ? `, ${due}` : ""})`, tone: "warning" };
}
