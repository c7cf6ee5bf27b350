import { describe, expect, it } from "vitest";
import { attemptGaps, describeLane, type DeliveryLane, laneEndMs, waitBeforeFirstMs } from "./delivery-lane";

const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 6, 0, 0) + s * 1000).toISOString();
const failing: DeliveryLane = {
  requestId: "r1",
  label: "IncidentCreated",
  producedAt: t(0),
  state: "expired",
  attempts: [0, 1, 3, 7].map((s) => ({ at: t(s), status: 503, error: null, durationMs: 20 })),
};

describe("delivery lanes", () => {
  it("reads backoff gaps as they happened", () => {
    expect(attemptGaps(failing)).toEqual([1000, 2000, 4000]);
  });
  it("ends an expired lane at producedAt + 1 h, an open one at now, a delivered one at its last attempt", () => {
    expect(laneEndMs(failing)).toBe(Date.parse(t(3600)));
    expect(laneEndMs({ ...failing, state: "pending" }, Date.parse(t(100)))).toBe(Date.parse(t(100)));
    expect(laneEndMs({ ...failing, state: "delivered" })).toBe(Date.parse(t(7)) + 20);
  });
  it("measures the wait before the first attempt, up to now when none happened", () => {
    const stalled: DeliveryLane = {
      requestId: "r2",
      label: "IncidentUpdated",
      producedAt: t(2),
      state: "pending",
      attempts: [],
    };
    expect(waitBeforeFirstMs(stalled, Date.parse(t(30)))).toBe(28_000);
    expect(waitBeforeFirstMs({ ...stalled, attempts: [{ at: t(12), status: 200, error: null, durationMs: 5 }] })).toBe(
      10_000,
    );
  });
  it("describes a lane in words for screen readers", () => {
    expect(describeLane({ ...failing, attempts: failing.attempts.slice(0, 1) })).toBe(
      "IncidentCreated, expired, 1 attempt: attempt 1 at 06:00:00Z: 503",
    );
  });
});
