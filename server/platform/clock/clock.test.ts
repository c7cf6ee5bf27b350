import { describe, expect, it } from "vitest";
import { ManualClock, WorkbenchClock } from "./clock.ts";

describe("WorkbenchClock", () => {
  it("is real time plus the offset", () => {
    const clock = new WorkbenchClock({ realNowMs: () => 1_000_000 });
    expect(clock.nowMs()).toBe(1_000_000);
    clock.setOffset(3_660_000);
    expect(clock.nowMs()).toBe(4_660_000);
    expect(clock.now().toISOString()).toBe(new Date(4_660_000).toISOString());
  });

  it("announces a changed offset once, and not a repeated one", () => {
    const clock = new WorkbenchClock({ realNowMs: () => 0 });
    const seen: number[] = [];
    clock.on("changed", (o) => seen.push(o));
    clock.setOffset(60_000);
    clock.setOffset(60_000);
    clock.setOffset(0);
    expect(seen).toEqual([60_000, 0]);
  });
});

describe("WorkbenchClock.applyStored", () => {
  it("applies a stored move only if it is newer than the one it holds", () => {
    const clock = new WorkbenchClock({ realNowMs: () => 0 });
    clock.applyStored(60_000, 2n);
    clock.applyStored(0, 1n); // an older move's offset, answered late
    expect(clock.offsetMs).toBe(60_000);
    clock.applyStored(120_000, 3n);
    expect(clock.offsetMs).toBe(120_000);
  });
});

describe("ManualClock", () => {
  it("moves only when told", () => {
    const clock = new ManualClock(5);
    clock.advance(10);
    expect(clock.nowMs()).toBe(15);
  });
});
