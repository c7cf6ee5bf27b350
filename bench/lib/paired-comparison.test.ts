import { describe, expect, it } from "vitest";
import { comparePairs } from "./paired-comparison.ts";

describe("comparePairs", () => {
  it("separates the builds' difference from the first row's advantage", () => {
    // B does 0.9 of A; whichever runs first in a pair runs 6 % faster; the machine drifts between pairs.
    const pairs = [1000, 1400, 900, 1200].map((speed, k) => {
      const aFirst = k % 2 === 0;
      return { a: speed * (aFirst ? 1.06 : 1), b: speed * 0.9 * (aFirst ? 1 : 1.06), aFirst };
    });
    const c = comparePairs(pairs);
    expect(c.ratio).toBeCloseTo(0.9, 10);
    expect(c.firstRowAdvantage).toBeCloseTo(1.06, 10);
    expect(c.bAhead).toBe(0);
    expect(c.pairs).toBe(4);
  });

  it("takes the plain geometric mean when every pair ran in one order", () => {
    const c = comparePairs([
      { a: 100, b: 110, aFirst: true },
      { a: 200, b: 180, aFirst: true },
    ]);
    expect(c.ratio).toBeCloseTo(Math.sqrt(1.1 * 0.9), 10);
    expect(c.firstRowAdvantage).toBeNull();
    expect(c.bAhead).toBe(1);
  });
});
