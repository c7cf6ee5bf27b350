// An embedded receiver's simulated faults: its modes, pure parsing. The fault's window (when it is
// active, on the workbench clock) and its storage are the integration's (directory/integration-faults.ts).

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
