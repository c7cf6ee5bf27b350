// Matchers that wait for a delivery:
//   await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId });
// They re-read the receiver until the request is there or the timeout passes,
// and a failure shows what did arrive.
import type { HttpMethod } from "./partner-api.ts";
import type { ReceivedRequest, Receiver } from "./receivers.ts";

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
