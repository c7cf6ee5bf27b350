import { describe, expect, it } from "vitest";
import { describeDeliveryStatus, type StatusFacts, summarizeAttempts } from "./describe-delivery-status.ts";

const produced = "2026-11-28T10:00:00.000Z";
const t = (s: number) => Date.parse(produced) + s * 1_000;
const fail = (status: number | null, error: string | null = null) => ({ status, error });
const base: StatusFacts = {
  state: "pending",
  producedAt: produced,
  nextAttemptAt: null,
  attempts: [],
  waitingBehind: null,
};

describe("summarizeAttempts", () => {
  it("counts each outcome, errors included, in order of first appearance", () => {
    expect(summarizeAttempts([...Array(7).fill(fail(503)), fail(200)])).toBe("7 × 503, 1 × 200");
    const timeout = fail(null, "timeout: no response within 10000 ms");
    expect(summarizeAttempts([timeout, timeout, fail(503)])).toBe("2 × timeout, 1 × 503");
    expect(summarizeAttempts([fail(null, "ECONNREFUSED: connect refused")])).toBe("1 × ECONNREFUSED");
    expect(summarizeAttempts([])).toBe("—");
  });
});

describe("describeDeliveryStatus", () => {
  it("says a failing head is retrying, with its last status and when the next attempt is", () => {
    const head = { ...base, attempts: [fail(503), fail(503)], nextAttemptAt: new Date(t(11)).toISOString() };
    expect(describeDeliveryStatus(head, t(3))).toEqual({ label: "retrying (503, next in 8 s)", tone: "warning" });
    expect(describeDeliveryStatus(head, t(11)).label).toBe("retrying (503, due now)");
    expect(describeDeliveryStatus(head, null).label).toBe("retrying (503)");
  });

  it("says an event behind a failing head waits behind it, by the head's short id", () => {
    const behind = { ...base, waitingBehind: "1a2b3c4d-0000-4000-8000-000000000000" };
    expect(describeDeliveryStatus(behind, t(5))).toEqual({ label: "waiting behind 1a2b3c4d", tone: "neutral" });
  });

  it("says how an event expired: unsent after 1 h, or after N attempts", () => {
    expect(describeDeliveryStatus({ ...base, state: "expired" }, t(4_000)).label).toBe("expired unsent after 1 h");
    const tried = { ...base, state: "expired" as const, attempts: [fail(503), fail(null, "timeout")] };
    expect(describeDeliveryStatus(tried, t(4_000)).label).toBe("expired after 2 attempts (last timeout)");
  });

  it("says an event of another major version was superseded at the cutover, unsent or after its attempts (decision 0049)", () => {
    expect(describeDeliveryStatus({ ...base, state: "superseded" }, t(5))).toEqual({
      label: "superseded at cutover (unsent)",
      tone: "neutral",
    });
    const tried = { ...base, state: "superseded" as const, attempts: [fail(503), fail(404)] };
    expect(describeDeliveryStatus(tried, t(5)).label).toBe("superseded at cutover after 2 attempts (last 404)");
    // Finished: never "expiring", even past its hour.
    expect(describeDeliveryStatus({ ...base, state: "superseded" }, t(4_000)).label).toBe(
      "superseded at cutover (unsent)",
    );
  });

  it("never shows a next attempt in the past for an event past its hour that is not expired yet", () => {
    const late = { ...base, attempts: [fail(503)], nextAttemptAt: new Date(t(3_500)).toISOString() };
    expect(describeDeliveryStatus(late, t(3_600 + 61 * 60))).toEqual({
      label: "expiring: last 503, past its 1 h",
      tone: "danger",
    });
    expect(describeDeliveryStatus({ ...base, nextAttemptAt: produced }, t(3_601)).label).toBe(
      "expiring: unsent, past its 1 h",
    );
  });

  it("tells a queued first attempt from a delivered one and one in flight", () => {
    expect(describeDeliveryStatus({ ...base, nextAttemptAt: produced }, t(1)).label).toBe("queued (first attempt)");
    expect(describeDeliveryStatus({ ...base, state: "delivering", attempts: [fail(503)] }, t(1)).label).toBe(
      "sending (attempt 2)",
    );
    expect(describeDeliveryStatus({ ...base, state: "delivered", attempts: [fail(503), fail(200)] }, t(9)).label).toBe(
      "delivered on attempt 2",
    );
    expect(describeDeliveryStatus({ ...base, state: "delivered", attempts: [fail(200)] }, t(9)).label).toBe(
      "delivered",
    );
  });
});
