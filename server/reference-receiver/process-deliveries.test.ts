import { expect, it } from "vitest";
import { batchGapMs } from "./process-deliveries.ts";

it("the next processing batch waits longer the more pairs the last one applied: 50 ms at least, 4 ms a pair, 250 ms at most", () => {
  expect([0, 1, 5, 12, 13, 20, 62, 63, 128].map((pairs) => batchGapMs({ pairs, leftWork: false }))).toEqual([
    50, 50, 50, 50, 52, 80, 248, 250, 250,
  ]);
});

it("a batch that left work behind (more pairs waiting than it took, or a pair with more records than it applies) is followed at once", () => {
  expect(batchGapMs({ pairs: 128, leftWork: true })).toBe(0);
  expect(batchGapMs({ pairs: 1, leftWork: true })).toBe(0);
});
