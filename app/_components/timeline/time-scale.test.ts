import { describe, expect, it } from "vitest";
import { createTimeScale, formatOffset } from "./time-scale";

const origin = Date.parse("2026-11-22T06:00:00Z");

describe("createTimeScale", () => {
  it("log: gaps of 1 s, 2 s, 4 s stay visibly apart on a one-hour axis", () => {
    const s = createTimeScale({ originMs: origin, endMs: origin + 3_600_000, width: 1000, kind: "log" });
    const xs = [0, 1_000, 3_000, 7_000].map((o) => s.x(origin + o));
    expect(xs[0]).toBe(0);
    for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThan(40);
    expect(s.x(origin + 3_600_000)).toBeCloseTo(1000, 9);
    expect(s.ticks.map((t) => t.label)).toEqual(["0", "+1s", "+10s", "+1m", "+10m", "+1h"]);
  });
  it("linear: proportional, with round ticks about targetTicks apart", () => {
    const s = createTimeScale({ originMs: origin, endMs: origin + 60_000, width: 600, kind: "linear" });
    expect(s.x(origin + 30_000)).toBeCloseTo(300, 9);
    expect(s.ticks.map((t) => t.label)).toEqual(["0", "+10s", "+20s", "+30s", "+40s", "+50s", "+1m"]);
    expect(
      createTimeScale({ originMs: origin, endMs: origin + 3_660_000, width: 600, kind: "linear" }).ticks.map(
        (t) => t.label,
      ),
    ).toEqual(["0", "+15m", "+30m", "+45m", "+1h"]);
  });
  it("never divides by zero and clamps times before the origin", () => {
    const s = createTimeScale({ originMs: origin, endMs: origin, width: 100, kind: "log" });
    expect(Number.isFinite(s.x(origin + 500))).toBe(true);
    expect(s.x(origin - 5_000)).toBe(0);
  });
});

describe("formatOffset", () => {
  it("reads like a backoff", () => {
    expect(formatOffset(0)).toBe("0");
    expect(formatOffset(2_000)).toBe("+2s");
    expect(formatOffset(90_000)).toBe("+1m30s");
    expect(formatOffset(3_600_000)).toBe("+1h");
    expect(formatOffset(250)).toBe("+250ms");
  });
});
