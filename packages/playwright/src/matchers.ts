// Matchers that wait for a delivery:
//   await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId });
// They re-read the receiver until the request is there or the timeout passes,
// and a failure shows what did arrive.
import type { HttpMethod } from "./partner-api.ts";
import type { ReceivedRequest, Receiver } from "./receivers.ts";
import type { Advice, AdviceRule, ClientReport, PartnerClient } from "./clients.ts";

export type ReceivedMatch = {
  /** Only requests about this incident. */
  incidentId?: string;
  /** The body must contain these fields (a deep partial match). */
  body?: Record<string, unknown>;
  /** The receiver's answer (default: any). */
  status?: number;
  /** How many such requests (default: at least one). */
  times?: number;
  /** How long to wait, in ms (default 10 s). */
  timeout?: number;
};

const POLL_MS = 100;

/** `path` matches a request whose path is it, or ends with it (`/label` matches /v3/incidents/{id}/label). */
export function matchesRequest(r: ReceivedRequest, method: HttpMethod, path: string, match: ReceivedMatch): boolean {
  return (
    r.method === method.toUpperCase() &&
    (r.path === path || r.path.endsWith(path)) &&
    (match.incidentId === undefined || r.incidentId === match.incidentId) &&
    (match.status === undefined || r.status === match.status) &&
    (match.body === undefined || contains(r.body, match.body))
  );
}

function contains(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== "object") return Object.is(actual, expected);
  if (actual === null || typeof actual !== "object") return false;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) && expected.length === actual.length && expected.every((e, i) => contains(actual[i], e))
    );
  return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v));
}

const describe = (r: ReceivedRequest) =>
  `  ${r.method.padEnd(5)} ${r.path} → ${r.status}${r.serviceRequestId ? `  (${r.serviceRequestId})` : ""}`;

export const receiverMatchers = {
  async toHaveReceived(
    this: { isNot: boolean },
    receiver: Receiver,
    method: HttpMethod,
    path: string,
    match: ReceivedMatch = {},
  ) {
    const times = match.times ?? 1;
    const deadline = Date.now() + (match.timeout ?? 10_000);
    let seen: ReceivedRequest[] = [];
    let count = 0;
    for (;;) {
      seen = await receiver.received();
      count = seen.filter((r) => matchesRequest(r, method, path, match)).length;
      const pass = match.times === undefined ? count >= times : count === times;
      // Waiting for a request to arrive; `.not` waits the whole timeout, so nothing arrives late.
      if ((pass && !this.isNot) || Date.now() >= deadline)
        return {
          pass,
          message: () => {
            const wanted = `${method.toUpperCase()} …${path}${match.incidentId ? ` for incident ${match.incidentId}` : ""}${
              match.body ? ` with body ${JSON.stringify(match.body)}` : ""
            }${match.status ? ` answered ${match.status}` : ""}`;
            const relevant = match.incidentId ? seen.filter((r) => r.incidentId === match.incidentId) : seen;
            const arrived = relevant.length
              ? relevant.slice(-30).map(describe).join("\n")
              : `  nothing${match.incidentId ? " for that incident" : ""}`;
            const expected = `Expected ${receiver.name} ${this.isNot ? "not " : ""}to have received ${wanted}`;
            const exactly = match.times !== undefined ? ` exactly ${times} time(s)` : "";
            const within = `found ${count} within ${match.timeout ?? 10_000} ms`;
            const heading = `What arrived${relevant.length > 30 ? " (the last 30)" : ""}`;
            return `${expected}${exactly}; ${within}.\n${heading}:\n${arrived}`;
          },
        };
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  },
};

/** What `toHaveNoAdvice` judges: every piece of advice, or only errors. */
export type AdviceMatch = {
  severity?: "error";
  /** How long to wait for the workbench to have recorded the client's last calls, in ms (default 5 s). */
  timeout?: number;
};

/** The report once the client's calls have settled: the recorder writes a call within about 200 ms. */
async function settledReport(client: PartnerClient, timeoutMs: number): Promise<ClientReport> {
  const deadline = Date.now() + timeoutMs;
  let last = await client.report();
  for (;;) {
    await new Promise((r) => setTimeout(r, 400));
    const next = await client.report();
    if (next.calls === last.calls || Date.now() >= deadline) return next;
    last = next;
  }
}

const describeAdvice = (a: Advice) =>
  `  ${a.severity.padEnd(7)} ${a.title} (${a.spec})\n          seen: ${a.seen}\n          fix:  ${a.fix}`;

export const clientMatchers = {
  /** The client broke none of the spec's rules the workbench checks (or, `{ severity: "error" }`, none of the errors). */
  async toHaveNoAdvice(this: { isNot: boolean }, client: PartnerClient, match: AdviceMatch = {}) {
    const report = await settledReport(client, match.timeout ?? 5_000);
    const advice = report.advice.filter((a) => match.severity === undefined || a.severity === match.severity);
    return {
      pass: advice.length === 0,
      message: () =>
        advice.length === 0
          ? `Expected ${client.clientId} to have advice; its ${report.calls} calls since ${report.since} had none.`
          : `Expected ${client.clientId} to have no advice; ${report.calls} calls since ${report.since} earned ${advice.length}:\n${advice.slice(0, 20).map(describeAdvice).join("\n")}`,
    };
  },
  /** The client earned advice of this rule (a negative test of your own client's mistake). */
  async toHaveAdvice(this: { isNot: boolean }, client: PartnerClient, rule: AdviceRule, match: AdviceMatch = {}) {
    const report = await settledReport(client, match.timeout ?? 5_000);
    const found = report.advice.filter((a) => a.rule === rule);
    return {
      pass: found.length > 0,
      message: () =>
        found.length > 0
          ? `Expected ${client.clientId} not to have ${rule} advice; it had ${found.length}:\n${found.slice(0, 5).map(describeAdvice).join("\n")}`
          : `Expected ${client.clientId} to have ${rule} advice; it had ${report.advice.length ? report.advice.map((a) => a.rule).join(", ") : "none"}.`,
    };
  },
};
