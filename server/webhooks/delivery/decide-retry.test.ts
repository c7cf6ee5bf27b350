import { describe, expect, it } from "vitest";
import { decideRetry } from "./decide-retry.ts";
import { isExpired } from "../outbox/delivery-window.ts";

const produced = new Date("2026-11-22T06:00:00.000Z");
const plus = (ms: number) => new Date(produced.getTime() + ms);

describe("decideRetry", () => {
  it("retries 1 s after the first failure, then doubles: 2 s, 4 s, 8 s …", () => {
    expect(decideRetry(1, produced, plus(100))).toEqual({ retryAt: plus(1_100) });
    expect(decideRetry(2, produced, plus(1_200))).toEqual({ retryAt: plus(3_200) });
    expect(decideRetry(3, produced, plus(3_300))).toEqual({ retryAt: plus(7_300) });
    expect(decideRetry(4, produced, plus(7_400))).toEqual({ retryAt: plus(15_400) });
    expect(decideRetry(11, produced, plus(1_023_000))).toEqual({ retryAt: plus(2_047_000) }); // 2^10 s
    expect(decideRetry(12, produced, plus(2_047_000))).toEqual({ retryAt: plus(3_600_000) }); // 2^11 s would pass the window
  });
  it("caps the last retry at producedAt + 1 h, and expires from then on", () => {
    expect(decideRetry(11, produced, plus(3_000_000))).toEqual({ retryAt: plus(3_600_000) });
    expect(decideRetry(11, produced, plus(3_599_999))).toEqual({ retryAt: plus(3_600_000) });
    expect(decideRetry(11, produced, plus(3_600_000))).toEqual({ expire: true });
    expect(decideRetry(1, produced, plus(61 * 60_000))).toEqual({ expire: true });
  });
  it("stays finite for absurd attempt counts", () => {
    expect(decideRetry(10_000, produced, plus(10))).toEqual({ retryAt: plus(3_600_000) });
  });
  it("isExpired is the same boundary", () => {
    expect(isExpired(produced, plus(3_599_999))).toBe(false);
    expect(isExpired(produced, plus(3_600_000))).toBe(true);
  });
});
