import { describe, expect, it } from "vitest";
import { slope } from "./slope.ts";

describe("slope", () => {
  it("is exact on a line, scaled per unit asked", () => {
    const line = [0, 1, 2, 3].map((x) => ({ x, y: 5 + 2 * x }));
    expect(slope(line)).toBe(2);
    expect(slope(line, 10)).toBe(20);
  });
  it("is 0 on a flat series with noise around it symmetric", () => {
    expect(
      slope([
        { x: 0, y: 1 },
        { x: 1, y: 3 },
        { x: 2, y: 3 },
        { x: 3, y: 1 },
      ]),
    ).toBe(0);
  });
  it("is NaN without two distinct x", () => {
    expect(slope([{ x: 1, y: 2 }])).toBeNaN();
    expect(
      slope([
        { x: 1, y: 2 },
        { x: 1, y: 3 },
      ]),
    ).toBeNaN();
  });
});
