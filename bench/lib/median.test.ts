import { describe, expect, it } from "vitest";
import { median } from "./median.ts";

describe("median", () => {
  it("takes the middle of an odd count, unsorted", () => {
    expect(median([0.61, 0.47, 0.56])).toBe(0.56);
  });

  it("takes the mean of the two middle values of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN for no values, and leaves its input in place", () => {
    expect(median([])).toBeNaN();
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});
