import { expect, it } from "vitest";
import { batchGapMs } from "./process-deliveries.ts";

it("the next processing batch waits longer the more records the last one applied: 20 ms idle or quiet, 3 ms a record, 250 ms at most", () => {
  expect([0, 1, 6, 7, 10, 33, 83, 84, 500].map(batchGapMs)).toEqual([20, 20, 20, 21, 30, 99, 249, 250, 250]);
});
