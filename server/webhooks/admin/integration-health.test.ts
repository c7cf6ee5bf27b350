import { describe, expect, it } from "vitest";
import { summarizeHealth } from "./integration-health.ts";

const now = Date.parse("2026-11-28T12:00:00.000Z");
const at = (minAgo: number) => new Date(now - minAgo * 60_000).toISOString();

describe("summarizeHealth", () => {
  it("rates the last hour's attempts, and dates a failure run from its first failure after the last 200", () => {
    const h = summarizeHealth(
      "north-psap",
      [
        { at: at(90), status: 503, error: null }, // outside the hour: not rated
        { at: at(50), status: 200, error: null },
        { at: at(40), status: 503, error: null },
        { at: at(30), status: 200, error: null },
        { at: at(5), status: 503, error: null },
        { at: at(2), status: null, error: "timeout: no response within 10000 ms" },
      ],
      now,
    );
    expect(h).toEqual({
      integration: "north-psap",
      attempts: 5,
      accepted: 2,
      successRate: 40,
      failingSince: at(5),
      lastError: { at: at(2), outcome: "timeout" },
      lastAttemptAt: at(2),
    });
  });

  it("is not failing when the newest attempt was accepted, and has no rate without attempts", () => {
    const ok = summarizeHealth(
      "x",
      [
        { at: at(3), status: 503, error: null },
        { at: at(1), status: 200, error: null },
      ],
      now,
    );
    expect(ok.failingSince).toBeNull();
    expect(ok.lastError).toEqual({ at: at(3), outcome: "503" });
    expect(summarizeHealth("idle", [], now)).toMatchObject({
      attempts: 0,
      successRate: null,
      failingSince: null,
      lastError: null,
    });
  });
});
