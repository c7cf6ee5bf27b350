import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDueTimer, DUE_READ_MIN_GAP_MS, RETRY_AFTER_FAILURE_MS } from "./due-timer.ts";

function setUp(answers: Array<number | null | Error>, retryInMs?: number) {
  let wakes = 0;
  let reads = 0;
  let failures = 0;
  const timer = createDueTimer({
    readNextWakeInMs: () => {
      reads++;
      const a = answers.shift();
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a ?? null);
    },
    wake: () => wakes++,
    maxSleepMs: 30_000,
    onReadFailed: () => {
      failures++;
      return retryInMs;
    },
  });
  return { timer, counts: () => ({ wakes, reads, failures }) };
}

beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] }));
afterEach(() => vi.useRealTimers());

describe("due-time timer", () => {
  it("wakes the worker just after the next due time, or after maxSleepMs when nothing is due", async () => {
    const due = setUp([400]);
    due.timer.refresh();
    await vi.advanceTimersByTimeAsync(400);
    expect(due.counts().wakes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(due.counts().wakes).toBe(1);
    await due.timer.stop();

    const idle = setUp([null]);
    idle.timer.refresh();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(idle.counts().wakes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(idle.counts().wakes).toBe(1);
    await idle.timer.stop();
  });

  it("reads at most every DUE_READ_MIN_GAP_MS: a refresh within the gap reads at its end, once", async () => {
    const { timer, counts } = setUp([5_000, 5_000, 5_000]);
    timer.refresh();
    await vi.advanceTimersByTimeAsync(10);
    timer.refresh();
    timer.refresh();
    expect(counts().reads).toBe(1);
    await vi.advanceTimersByTimeAsync(DUE_READ_MIN_GAP_MS);
    expect(counts().reads).toBe(2);
    await timer.stop();
  });

  it("a clock jump forgets the last read: the next refresh reads at once", async () => {
    const { timer, counts } = setUp([5_000, 5_000]);
    timer.refresh();
    await vi.advanceTimersByTimeAsync(10);
    timer.forgetLastRead();
    timer.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(counts().reads).toBe(2);
    await timer.stop();
  });

  it("a failed read is reported and wakes the worker a second later", async () => {
    const { timer, counts } = setUp([new Error("down")]);
    timer.refresh();
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_FAILURE_MS - 1);
    expect(counts()).toEqual({ wakes: 0, reads: 1, failures: 1 });
    await vi.advanceTimersByTimeAsync(1);
    expect(counts().wakes).toBe(1);
    await timer.stop();
  });

  it("a failed read waits as long as the failure handler says (an outage backs off)", async () => {
    const { timer, counts } = setUp([new Error("down")], 4_000);
    timer.refresh();
    await vi.advanceTimersByTimeAsync(3_999);
    expect(counts()).toEqual({ wakes: 0, reads: 1, failures: 1 });
    await vi.advanceTimersByTimeAsync(1);
    expect(counts().wakes).toBe(1);
    await timer.stop();
  });

  it("once stopped, it neither reads nor wakes", async () => {
    const { timer, counts } = setUp([100]);
    timer.refresh();
    await timer.stop();
    timer.refresh();
    timer.retrySoon();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(counts()).toEqual({ wakes: 0, reads: 1, failures: 0 });
  });
});
