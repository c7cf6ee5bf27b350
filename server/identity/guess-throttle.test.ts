import { describe, expect, it } from "vitest";
import {
  delayAfterFailures,
  FREE_FAILURES,
  MAX_DELAY_MS,
  refusingWait,
  secondsToWait,
  TooManyAttempts,
} from "./guess-throttle.ts";

describe("delayAfterFailures (decisions 0051, 0070)", () => {
  const subject = (n: number) => delayAfterFailures(n, FREE_FAILURES.pair);
  it("costs nothing for the first five failures of a pair, ten of an account, twenty of an address", () => {
    expect(FREE_FAILURES).toEqual({ pair: 5, account: 10, source: 20 });
    expect(delayAfterFailures(10, FREE_FAILURES.account)).toBe(0);
    expect(delayAfterFailures(11, FREE_FAILURES.account)).toBe(1000);
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

describe("refusingWait (decision 0070)", () => {
  const none = { pair: 0, account: 0, source: 0 };
  it("refuses while the pair waits, trusted or not", () => {
    expect(refusingWait({ ...none, pair: 4 }, false)).toBe(4);
    expect(refusingWait({ ...none, pair: 4 }, true)).toBe(4);
  });
  it("refuses while the account or the address waits, unless the pair is trusted", () => {
    expect(refusingWait({ ...none, source: 900 }, false)).toBe(900);
    expect(refusingWait({ ...none, account: 60, source: 8 }, false)).toBe(60);
    expect(refusingWait({ ...none, account: 60, source: 900 }, true)).toBe(0);
  });
  it("lets every attempt through when nothing waits", () => {
    expect(refusingWait(none, false)).toBe(0);
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
