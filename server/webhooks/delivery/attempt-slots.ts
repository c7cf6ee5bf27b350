// The delivery worker's slots: `concurrency` attempts in flight at once, each a claimed head taken
// from the lanes' start buffer and delivered (deliver-event.ts), its lane moved through its
// transitions (lanes.ts) as the attempt ends and its record settles.
//
// A slot is free as soon as its attempt is over, not once its outcome is recorded: holding it
// through the record statement (batched per event-loop turn) kept a slot ~19 ms per event in a
// drain, and 64 slots made that the bound.
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import type { Attempted } from "./finish-delivery.ts";
import type { Lanes } from "./lanes.ts";
import type { Outcome } from "./record-outcome.ts";

export type AttemptSlotsOptions = {
  concurrency: number;
  /** A head claimed longer ago than this (performance.now()) is not started: see startWithinMs. */
  startWithinMs: number;
  lanes: Lanes;
  /** Delivers one head; calls `attempted` when the attempt is over; true when its record was written. */
  deliver: (row: ClaimedDelivery, attempted: Attempted) => Promise<boolean>;
  /** Heads that waited too long, and what was parked behind them, to give back. */
  giveBackLate: (rows: ClaimedDelivery[]) => void;
  /** An attempt ended: a slot is free. */
  slotFreed: () => void;
  /** A lane's next event may be claimable now and nothing here claims it. */
  laneClaimable: () => void;
  /** A delivery step threw (its lease will send the event again). */
  stepFailed: (err: Error, row: ClaimedDelivery) => void;
};

export type AttemptSlots = {
  /** Starts waiting heads while slots are free. */
  startReady: () => void;
  /** Attempts in flight: what `concurrency` bounds. */
  readonly inflight: number;
  /** Deliveries started whose outcome is not recorded yet (an attempt ended frees its slot first). */
  readonly unrecorded: number;
  /** No more attempts start. */
  stop: () => void;
  /** Resolves once every started delivery's record has settled. */
  whenRecorded: () => Promise<void>;
};

/**
 * A head claimed ahead may start only while its lease (counted from the claim, in real time) still
 * covers a whole attempt and a margin: past that, a second worker could re-claim it mid-attempt.
 * With the default lease (timeout + 20 s) a buffered head always starts in time; a lease close to the
 * timeout sends the late ones back. The margin (half the slack, at most 1 s) covers the time between
 * the lease's start in the database and the claim's answer.
 */
export const startWithinMs = (leaseMs: number, timeoutMs: number) =>
  leaseMs - timeoutMs - Math.min(1_000, (leaseMs - timeoutMs) / 2);

export function createAttemptSlots(options: AttemptSlotsOptions): AttemptSlots {
  const { concurrency, lanes } = options;
  let stopped = false;
  let inflight = 0;
  /** Deliveries started whose outcome is not recorded yet (stop waits for them). */
  let unrecorded = 0;
  const idle = new Set<() => void>();

  function start(row: ClaimedDelivery) {
    inflight++;
    unrecorded++;
    const attempt = lanes.startAttempt(row);
    const attemptEnded = (state: Outcome["state"]) => {
      const recordWaitsFor = lanes.endAttempt(attempt, state);
      if (!recordWaitsFor) return;
      inflight--;
      startReady();
      options.slotFreed();
      return recordWaitsFor;
    };
    options
      .deliver(row, attemptEnded)
      .then(
        (recorded) => {
          if (!recorded) lanes.breakLane(attempt);
        },
        (err: Error) => {
          lanes.breakLane(attempt);
          options.stepFailed(err, row);
        },
      )
      .finally(() => {
        void attemptEnded("pending");
        unrecorded--;
        const claimable = lanes.settleRecord(attempt);
        if (unrecorded === 0) for (const f of idle) f();
        if (claimable) options.laneClaimable();
      });
  }

  function startReady() {
    const late: ClaimedDelivery[] = [];
    while (!stopped && inflight < concurrency && lanes.readyCount > 0) {
      const { row, claimedAtMs } = lanes.nextReady()!;
      if (performance.now() - claimedAtMs > options.startWithinMs) late.push(row);
      else start(row);
    }
    if (late.length) options.giveBackLate(lanes.dropLate(late));
  }

  return {
    startReady,
    get inflight() {
      return inflight;
    },
    get unrecorded() {
      return unrecorded;
    },
    stop() {
      stopped = true;
    },
    async whenRecorded() {
      if (unrecorded > 0) await new Promise<void>((resolve) => idle.add(resolve));
    },
  };
}
