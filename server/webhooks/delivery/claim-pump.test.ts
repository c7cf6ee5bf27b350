import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import { createClaimPump, type ClaimPumpOptions } from "./claim-pump.ts";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: BigInt(i) }) as ClaimedDelivery);

function setUp(answers: number[], room = 4) {
  const claims: number[] = [];
  const taken: number[] = [];
  const calls = { idle: 0, failed: 0 };
  const options: ClaimPumpOptions = {
    room: () => room,
    claim: (limit) => {
      claims.push(limit);
      const n = answers.shift();
      return n === undefined ? Promise.reject(new Error("no answer")) : Promise.resolve(rows(n));
    },
    take: (r) => taken.push(r.length),
    idle: () => calls.idle++,
    failed: () => calls.failed++,
  };
  return { pump: createClaimPump(options), claims, taken, calls };
}

beforeEach(() => vi.useFakeTimers({ toFake: ["setImmediate"] }));
afterEach(() => vi.useRealTimers());

describe("claim pump", () => {
  it("coalesces the wakes of one event-loop turn into one claim, then goes idle on a short answer", async () => {
    const { pump, claims, taken, calls } = setUp([2]);
    pump.wake();
    pump.wake();
    pump.wake();
    await vi.runAllTimersAsync();
    expect(claims).toEqual([4]);
    expect(taken).toEqual([2]);
    expect(calls.idle).toBe(1);
  });

  it("claims again at once while a claim comes back full", async () => {
    const { pump, claims } = setUp([4, 4, 1]);
    pump.wake();
    await vi.runAllTimersAsync();
    expect(claims).toEqual([4, 4, 4]);
  });

  it("a freed slot wakes it only when the last claim was cut short by room", async () => {
    const short = setUp([1, 1]);
    short.pump.wake();
    await vi.runAllTimersAsync();
    short.pump.slotFreed();
    await vi.runAllTimersAsync();
    expect(short.claims).toEqual([4]);

    const noRoom = setUp([], 0);
    noRoom.pump.wake();
    await vi.runAllTimersAsync();
    noRoom.pump.slotFreed();
    await vi.runAllTimersAsync();
    expect(noRoom.claims).toEqual([]); // cut short by room: the freed slot woke it, and it found none again
    expect(noRoom.calls.idle).toBe(2);
  });

  it("a failed claim is reported, and the due-time read is not refreshed", async () => {
    const { pump, calls } = setUp([]);
    pump.wake();
    await vi.runAllTimersAsync();
    expect(calls).toEqual({ idle: 0, failed: 1 });
  });

  it("once stopped, a wake claims nothing", async () => {
    const { pump, claims } = setUp([1]);
    await pump.stop();
    pump.wake();
    await vi.runAllTimersAsync();
    expect(claims).toEqual([]);
  });
});
