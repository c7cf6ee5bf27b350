// One lane's state as a delivery worker keeps it (lanes.ts holds the lanes and changes them only by
// its named transitions; its header says what each part means).
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";

/** A claimed row and when (performance.now(), before the claim was sent) its lease may have started. */
export type Claimed = { row: ClaimedDelivery; claimedAtMs: number };

export type LaneMode = "ready" | "inFlight" | "recording";

export type Lane = {
  /** The head: claimed, ready or in flight, whose attempt has not ended. */
  head: ClaimedDelivery | null;
  /** The attempt under way, if any. */
  inFlight: ClaimedDelivery | null;
  parked: Claimed[];
  /** The id of the lane's last event this worker took: a successor is taken only directly behind it. */
  tail: bigint;
  /** No attempt is under way and the last one was delivered: a successor may leave at once. */
  open: boolean;
  broken: boolean;
  /** Events started whose record is not written yet. */
  unrecorded: number;
  /** Settles once the record of the lane's last started event is written (the next record waits). */
  recorded: Promise<unknown>;
  /** Successors given back, which the lane's next record waits for (an expiry must see them pending). */
  releasing: Promise<unknown>;
};

/** One started event of a lane, from its start to its record. */
export type LaneAttempt = {
  readonly row: ClaimedDelivery;
  readonly key: string;
  readonly lane: Lane;
  /** The lane's previous record, which this one waits for. */
  readonly previous: Promise<unknown>;
  readonly markRecorded: () => void;
  ended: boolean;
  settled: boolean;
};

/** A lane first met with `row`: nothing started, nothing parked. */
export function newLane(row: ClaimedDelivery): Lane {
  return {
    head: null,
    inFlight: null,
    parked: [],
    tail: row.id,
    open: false,
    broken: false,
    unrecorded: 0,
    recorded: Promise.resolve(),
    releasing: Promise.resolve(),
  };
}
