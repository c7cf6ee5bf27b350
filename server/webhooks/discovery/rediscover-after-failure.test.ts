import { describe, expect, it } from "vitest";
import { isFailedAttempt, RediscoveryLimiter, REDISCOVER_AFTER_FAILURE_MS } from "./rediscover-after-failure.ts";

describe("rediscovery after a failed delivery", () => {
  it("counts every answer but 200, and a connection error, as a failure", () => {
    expect([200, 201, 404, 503, null].map((status) => isFailedAttempt({ status }))).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it("lets one rediscovery per integration through every 30 s", () => {
    const limiter = new RediscoveryLimiter();
    const t = 1_000_000;
    expect(REDISCOVER_AFTER_FAILURE_MS).toBe(30_000);
    expect(limiter.take("a", t)).toBe(true);
    expect(limiter.take("a", t + 1_000)).toBe(false);
    expect(limiter.take("b", t + 1_000)).toBe(true);
    expect(limiter.take("a", t + 29_999)).toBe(false);
    expect(limiter.take("a", t + 30_000)).toBe(true);
    expect(limiter.take("a", t + 30_001)).toBe(false);
  });

  it("is not stuck when the workbench clock is set back", () => {
    const limiter = new RediscoveryLimiter();
    expect(limiter.take("a", 5_000_000)).toBe(true);
    expect(limiter.take("a", 1_000_000)).toBe(true);
  });
});
