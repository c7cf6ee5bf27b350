// The delivery worker's claim loop: a wake claims as many lane heads as the worker has room for
// (free slots plus prefetch), again while a claim comes back full, and hands them to the worker.
// One claim at a time: a wake during a claim makes one more round after it.
//
// Wakes are coalesced to one claim per event-loop turn: under load many deliveries finish in the
// same turn, and one claim for all their freed slots beats one claim each.
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";

export type ClaimPumpOptions = {
  /** How many more heads the worker would take now (free slots plus prefetch, less what it holds). */
  room: () => number;
  /** Claims up to `limit` lane heads for this worker (one statement: claim-deliveries.ts). */
  claim: (limit: number) => Promise<ClaimedDelivery[]>;
  /** Heads claimed; `claimedAtMs`: performance.now() before the claim was sent. */
  take: (rows: ClaimedDelivery[], claimedAtMs: number) => void;
  /** The pump went idle (every claim came back short, or there is no room): read the next due time. */
  idle: () => void;
  /** A claim failed: wake again a little later. */
  failed: (err: unknown) => void;
};

export type ClaimPump = {
  wake: () => void;
  /** A slot freed up: claim again only if the last claim was cut short by room. */
  slotFreed: () => void;
  /** Whether a claim is in flight or a wake waits for its turn. */
  readonly busy: boolean;
  /** No more claims; resolves once a claim in flight has been handed over. */
  stop: () => Promise<void>;
};

export function createClaimPump({ room, claim, take, idle, failed }: ClaimPumpOptions): ClaimPump {
  let stopped = false;
  let pumping = false;
  let pumped: Promise<void> = Promise.resolve();
  let again = false;
  let wakeQueued = false;
  // Whether the last claim was cut short by free capacity (it got all it asked for, or asked for
  // nothing): only then can a slot freeing up find more heads to claim. Otherwise every ready head
  // was claimed, and what becomes ready later wakes the worker itself (a plan, a finished lane, a due
  // time, a clock jump).
  let capacityBound = false;

  const wake = () => {
    if (stopped || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      if (stopped) return;
      if (pumping) again = true;
      else pumped = pump();
    });
  };

  async function pump() {
    pumping = true;
    try {
      do {
        again = false;
        const wanted = room();
        if (wanted <= 0) {
          capacityBound = true; // a slot freeing up wakes us
          break;
        }
        const claimedAtMs = performance.now();
        const rows = await claim(wanted);
        capacityBound = rows.length === wanted;
        take(rows, claimedAtMs);
        if (rows.length === wanted) again = true;
      } while (again && !stopped);
      if (!stopped) idle();
    } catch (err) {
      failed(err);
    } finally {
      pumping = false;
    }
    if (again && !stopped) wake();
  }

  return {
    wake,
    slotFreed: () => {
      if (capacityBound) wake();
    },
    get busy() {
      return pumping || wakeQueued;
    },
    async stop() {
      stopped = true;
      await pumped;
    },
  };
}
