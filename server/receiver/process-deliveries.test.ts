import { expect, it } from "vitest";
import { batchGapMs } from "./process-deliveries.ts";

it("the next processing batch waits longer the more pairs the last one applied: 20 ms when quiet, 4 ms a pair, 250 ms at most", () => {
  expect([0, 1, 5, 6, 10, 62, 63, 128].map((pairs) => batchGapMs({ pairs, leftWork: false }))).toEqual([
    20, 20, 20, 24, 40, 248, 250, 250,
  ]);
});

it("a batch that left work behind (more pairs waiting than it took, or a pair with more records than it applies) is followed at once", () => {
  expect(batchGapMs({ pairs: 128, leftWork: true })).toBe(0);
  expect(batchGapMs({ pairs: 1, leftWork: true })).toBe(0);
});
