import { describe, expect, it } from "vitest";
import { delayAfterFailures, FREE_FAILURES, MAX_DELAY_MS, secondsToWait, TooManyAttempts } from "./guess-throttle.ts";

describe("delayAfterFailures (decision 0051)", () => {
  const subject = (n: number) => delayAfterFailures(n, FREE_FAILURES.subject);
  it("costs nothing for the first five failures of a subject, twenty of a source", () => {
    expect(FREE_FAILURES).toEqual({ subject: 5, source: 20 });
    for (let n = 0; n <= 5; n++) expect(subject(n)).toBe(0);
    expect(delayAfterFailures(20, FREE_FAILURES.source)).toBe(0);
    expect(delayAfterFailures(21, FREE_FAILURES.source)).toBe(1000);
  });

  it("then doubles from 1 s", () => {
    expect([6, 7, 8, 9, 10].map(subject)).toEqual([1000, 2000, 4000, 8000, 16000]);
  });

  it("stops at 15 minutes, however many failures", () => {
    expect(MAX_DELAY_MS).toBe(15 * 60_000);
    expect(subject(15)).toBe(512_000);
    expect(subject(16)).toBe(MAX_DELAY_MS);
    expect(subject(1_000_000)).toBe(MAX_DELAY_MS);
  });
});

describe("secondsToWait", () => {
  const now = Date.UTC(2026, 0, 1);
  it("is 0 without keys or when every wait has passed", () => {
    expect(secondsToWait([], now)).toBe(0);
    expect(secondsToWait([new Date(now), new Date(now - 5000)], now)).toBe(0);
  });

  it("is the longest wait, rounded up to whole seconds", () => {
    expect(secondsToWait([new Date(now + 1), new Date(now + 2500)], now)).toBe(3);
  });
});

it("TooManyAttempts answers 429 too_many_attempts and names the wait", () => {
  const e = new TooManyAttempts(7);
  expect({ status: e.status, wire: e.wireCode, retry: e.retryAfterS, message: e.message }).toEqual({
    status: 429,
    wire: "too_many_attempts",
    retry: 7,
    message: "Too many failed attempts: try again in 7 s.",
  });
});
