// The shape the webhook engine's CLI prints per delivery, and the lane maths that does not draw.

export type DeliveryAttempt = { at: string; status: number | null; error: string | null; durationMs: number | null };
export type DeliveryLane = {
  requestId: string;
  label: string;
  producedAt: string;
  state: "pending" | "delivering" | "delivered" | "expired" | "superseded";
  /** The state in words that say why ("retrying (503)", "waiting behind 1a2b3c4d"); else the state. */
  statusLabel?: string;
  attempts: DeliveryAttempt[];
};

/** Spec: a delivery is retried for one hour after the event was produced, then expires. */
export const DELIVERY_WINDOW_MS = 3_600_000;

export const isSuccess = (a: DeliveryAttempt) => a.status !== null && a.status >= 200 && a.status < 300;

/** Where a lane's line ends: its expiry, its last attempt, or now while it is still open. */
export function laneEndMs(d: DeliveryLane, nowMs?: number): number {
  const produced = Date.parse(d.producedAt);
  const last = d.attempts.reduce((m, a) => Math.max(m, Date.parse(a.at) + (a.durationMs ?? 0)), produced);
  if (d.state === "expired") return Math.max(last, produced + DELIVERY_WINDOW_MS);
  if (d.state === "delivered" || d.state === "superseded") return last;
  return Math.max(last, nowMs ?? last);
}

/** Gaps between consecutive attempts in ms (the backoff as it happened): [1000, 2000, 4000, …]. */
export function attemptGaps(d: DeliveryLane): number[] {
  const ts = d.attempts.map((a) => Date.parse(a.at));
  return ts.slice(1).map((t, i) => t - ts[i]!);
}

/** How long the delivery waited before its first attempt (a stalled head holds later events back). */
export function waitBeforeFirstMs(d: DeliveryLane, nowMs?: number): number {
  const first = d.attempts[0];
  return (first ? Date.parse(first.at) : (nowMs ?? Date.parse(d.producedAt))) - Date.parse(d.producedAt);
}

export function describeLane(d: DeliveryLane): string {
  const parts = d.attempts.map(
    (a, i) =>
      `attempt ${i + 1} at ${a.at.slice(11, 19)}Z: ${a.status ?? "no response"}${a.error ? ` (${a.error})` : ""}`,
  );
  return `${d.label}, ${d.statusLabel ?? d.state}, ${d.attempts.length} attempt${d.attempts.length === 1 ? "" : "s"}${parts.length ? `: ${parts.join("; ")}` : ""}`;
}
