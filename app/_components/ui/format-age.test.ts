import { describe, expect, it } from "vitest";
import { formatAge, formatExact, spanOf } from "./format-age";

const NOW = Date.parse("2026-11-28T12:00:00.000Z");

describe("formatAge", () => {
  it.each([
    [0, "just now"],
    [4_999, "just now"],
    [5_000, "5 s ago"],
    [59_999, "59 s ago"],
    [60_000, "1 min ago"],
    [3_659_000, "1 h ago"],
    [3_780_000, "1 h 3 min ago"],
    [86_400_000, "1 d ago"],
    [266_400_000, "3 d 2 h ago"],
    [-8_000, "in 8 s"],
    [-2_000, "in a moment"],
  ])("%i ms before now reads %s", (ago, text) => {
    expect(formatAge(NOW - ago, NOW)).toBe(text);
  });

  it("rounds down, so a fix never reads younger than it is", () => {
    expect(formatAge(NOW - 119_999, NOW)).toBe("1 min ago");
  });

  it("says — for a moment it cannot read", () => {
    expect(formatAge(Number.NaN, NOW)).toBe("—");
  });
});

describe("spanOf / formatExact", () => {
  it("names whole units", () => {
    expect(spanOf(42)).toBe("42 s");
    expect(spanOf(7_200)).toBe("2 h");
  });
  it("gives the exact UTC time, or the input when it is no time", () => {
    expect(formatExact("2026-11-28T03:16:48.123Z")).toBe("2026-11-28 03:16:48 UTC");
    expect(formatExact("nonsense")).toBe("nonsense");
  });
});
