import { describe, expect, it } from "vitest";
import { formatCountdown, remainingMs } from "./format-countdown";

describe("formatCountdown", () => {
  it("formats minutes and hours", () => {
    expect(formatCountdown(65_000)).toBe("1:05");
    expect(formatCountdown(3_725_000)).toBe("1:02:05");
    expect(formatCountdown(0)).toBe("0:00");
  });
  it("rounds up while counting down so 0:00 means reached", () => {
    expect(formatCountdown(100)).toBe("0:01");
    expect(formatCountdown(59_001)).toBe("1:00");
  });
  it("shows overdue with a sign and survives NaN", () => {
    expect(formatCountdown(-7_400)).toBe("-0:07");
    expect(formatCountdown(Number.NaN)).toBe("—");
  });
});

describe("remainingMs", () => {
  it("reads the workbench clock: real now plus its offset", () => {
    const realNowMs = Date.parse("2026-11-22T06:00:00Z");
    expect(remainingMs({ targetIso: "2026-11-22T07:00:00Z", clockOffsetMs: 0, realNowMs })).toBe(3_600_000);
    expect(remainingMs({ targetIso: "2026-11-22T07:00:00Z", clockOffsetMs: 61 * 60_000, realNowMs })).toBe(-60_000);
  });
});
