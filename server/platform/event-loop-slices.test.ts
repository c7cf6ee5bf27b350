import { describe, expect, it } from "vitest";
import { EventLoopSlices } from "./event-loop-slices.ts";

describe("EventLoopSlices", () => {
  it("is spent once its slice has run, and lets what waits run before the next one", async () => {
    const slices = new EventLoopSlices(0);
    expect(slices.spent).toBe(true);
    const order: string[] = [];
    setImmediate(() => order.push("waiting"));
    await slices.next();
    order.push("next slice");
    expect(order).toEqual(["waiting", "next slice"]);
  });

  it("is not spent within its slice", () => {
    expect(new EventLoopSlices(60_000).spent).toBe(false);
  });
});
