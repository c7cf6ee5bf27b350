import { describe, expect, it } from "vitest";
import { countOutcomes, describeGroupProgress } from "./group-progress";

describe("describeGroupProgress", () => {
  it("says a failed group's passed and failed counts, which add up to its total", () => {
    expect(describeGroupProgress({ total: 12, passed: 1, failed: 11, skipped: 0, running: false })).toBe(
      "1 passed · 11 failed of 12",
    );
    expect(describeGroupProgress({ total: 7, passed: 7, failed: 0, skipped: 0, running: false })).toBe("7 passed of 7");
  });
  it("counts skipped checks and those still to run (or never run, when the run stopped)", () => {
    expect(describeGroupProgress({ total: 12, passed: 3, failed: 1, skipped: 2, running: true })).toBe(
      "3 passed · 1 failed · 2 skipped · 6 to run of 12",
    );
    expect(describeGroupProgress({ total: 5, passed: 2, failed: 0, skipped: 0, running: false })).toBe(
      "2 passed · 3 not run of 5",
    );
  });
  it("counts a kit error as failed", () => {
    const results = [
      { group: "tokens", outcome: "pass" },
      { group: "tokens", outcome: "error" },
      { group: "tokens", outcome: "skipped" },
      { group: "delivery", outcome: "fail" },
    ];
    expect(countOutcomes(results, "tokens")).toEqual({ passed: 1, failed: 1, skipped: 1 });
  });
});
