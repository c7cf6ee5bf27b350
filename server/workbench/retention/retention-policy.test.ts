import { describe, expect, it } from "vitest";
import { addCounts, keyedGoesOn, noneCounted, readCounts, retentionCutoff, walkGoesOn } from "./retention-policy.ts";

describe("retentionCutoff", () => {
  const now = Date.parse("2026-11-28T12:00:00.000Z");
  it("is RETENTION_DAYS whole days of workbench time before now", () => {
    expect(retentionCutoff(now, 14)?.toISOString()).toBe("2026-11-14T12:00:00.000Z");
    expect(retentionCutoff(now, 1)?.toISOString()).toBe("2026-11-27T12:00:00.000Z");
  });
  it("moves with the clock: 30 days ahead, data of today is 16 days older than the cutoff's day", () => {
    const jumped = now + 30 * 86_400_000;
    expect(retentionCutoff(jumped, 14)?.toISOString()).toBe("2026-12-14T12:00:00.000Z");
  });
  it("0 keeps everything", () => {
    expect(retentionCutoff(now, 0)).toBeNull();
  });
  it("refuses what the environment would never pass", () => {
    expect(() => retentionCutoff(now, -1)).toThrow(RangeError);
    expect(() => retentionCutoff(now, 1.5)).toThrow(RangeError);
  });
});

describe("walkGoesOn", () => {
  it.each([
    [{ rows: 500, older: 1 }, true],
    [{ rows: 500, older: 500 }, true],
    [{ rows: 500, older: 0 }, false],
    [{ rows: 499, older: 499 }, false],
    [{ rows: 0, older: 0 }, false],
  ])("%o → %s", (page, goesOn) => {
    expect(walkGoesOn(page, 500)).toBe(goesOn);
  });
});

describe("keyedGoesOn", () => {
  it("goes on only after a whole batch", () => {
    expect(keyedGoesOn(500, 500)).toBe(true);
    expect(keyedGoesOn(499, 500)).toBe(false);
    expect(keyedGoesOn(0, 500)).toBe(false);
  });
});

describe("counts", () => {
  it("adds a run to stored totals", () => {
    const run = { ...noneCounted(), deliveries: 7, signInArtefacts: 2 };
    expect(addCounts({ deliveries: 10, receiverRecords: 3 }, run)).toEqual({
      deliveries: 17,
      receiverRecords: 3,
      conformanceRuns: 0,
      signInArtefacts: 2,
    });
  });
  it("reads anything unreadable as 0", () => {
    expect(readCounts(null)).toEqual(noneCounted());
    expect(readCounts({ deliveries: "many", conformanceRuns: 4 })).toEqual({ ...noneCounted(), conformanceRuns: 4 });
  });
});
