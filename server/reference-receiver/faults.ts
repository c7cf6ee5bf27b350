// Simulated faults: pure parsing and the "is it active now" rule. Times are the
// workbench clock's, so `workbench clock advance` ends a fault like real time would.

/** What an embedded receiver can be told to do instead of behaving. */
export type ReceiverFaultMode =
  | { kind: "ok" }
  | { kind: "http-500" }
  | { kind: "http-503" }
  /** Records and applies the delivery but answers 201: only 200 accepts (Delivery rules 1). */
  | { kind: "http-201" }
  /** Holds the request without answering until the caller gives up. */
  | { kind: "timeout" }
  | { kind: "slow"; ms: number }
  /** Answers 503 to `percent` % of requests at random. */
  | { kind: "flaky"; percent: number }
  /** Answers 401 as if the token were invalid. */
  | { kind: "reject-token" }
  /** As if the host were unreachable: the socket is destroyed without a response. */
  | { kind: "down" };

/** The webhook engine's side (for external receivers): the connection itself fails. */
export type DispatcherFaultMode = "ok" | "refused" | "timeout";

export const RECEIVER_FAULT_MODES = "ok|http-500|http-503|http-201|timeout|slow:<ms>|flaky:<percent>|reject-token|down";

export function parseReceiverFaultMode(text: string): ReceiverFaultMode | undefined {
  const t = text.trim();
  if (
    t === "ok" ||
    t === "http-500" ||
    t === "http-503" ||
    t === "http-201" ||
    t === "timeout" ||
    t === "reject-token" ||
    t === "down"
  )
    return { kind: t };
  const slow = /^slow:(\d{1,6})$/.exec(t);
  if (slow) return { kind: "slow", ms: Number(slow[1]) };
  const flaky = /^flaky:(\d{1,3})$/.exec(t);
  if (flaky && Number(flaky[1]) <= 100) return { kind: "flaky", percent: Number(flaky[1]) };
  return undefined;
}

export function formatReceiverFaultMode(mode: ReceiverFaultMode): string {
  if (mode.kind === "slow") return `slow:${mode.ms}`;
  if (mode.kind === "flaky") return `flaky:${mode.percent}`;
  return mode.kind;
}

export type StoredFault = { mode: string; startsAt: Date | null; endsAt: Date | null };

export type FaultState = {
  mode: string;
  /** "active" now, "scheduled" for later, or "none" (ok, or the window has passed). */
  state: "active" | "scheduled" | "none";
  startsAt: string | null;
  endsAt: string | null;
  /** Until the fault ends (active) or starts (scheduled); null when open-ended. */
  remainingMs: number | null;
};

/** Active while startsAt <= now < endsAt; a null bound is open. */
export function describeFault(fault: StoredFault | null, nowMs: number): FaultState {
  const none: FaultState = { mode: "ok", state: "none", startsAt: null, endsAt: null, remainingMs: null };
  if (!fault || fault.mode === "ok") return none;
  const startsAt = fault.startsAt?.getTime() ?? null;
  const endsAt = fault.endsAt?.getTime() ?? null;
  if (endsAt !== null && nowMs >= endsAt) return none;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  if (startsAt !== null && nowMs < startsAt)
    return {
      mode: fault.mode,
      state: "scheduled",
      startsAt: iso(startsAt),
      endsAt: iso(endsAt),
      remainingMs: startsAt - nowMs,
    };
  return {
    mode: fault.mode,
    state: "active",
    startsAt: iso(startsAt),
    endsAt: iso(endsAt),
    remainingMs: endsAt === null ? null : endsAt - nowMs,
  };
}

/** The dispatcher-side network fault in force at `nowMs`: "ok" unless an active refused/timeout fault. */
export function dispatcherFaultAt(fault: StoredFault | null, nowMs: number): DispatcherFaultMode {
  const state = describeFault(fault, nowMs);
  return state.state === "active" ? (state.mode as DispatcherFaultMode) : "ok";
}

/** "+10m" (relative to now) or an ISO timestamp → ms since epoch; undefined when unreadable. */
export function parseStartTime(
  text: string,
  nowMs: number,
  parseDuration: (t: string) => number | undefined,
): number | undefined {
  if (text.startsWith("+")) {
    const d = parseDuration(text.slice(1));
    return d === undefined ? undefined : nowMs + d;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
}
