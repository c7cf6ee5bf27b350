// The lanes one delivery worker has events of, and the heads it has claimed but not started: the
// delivery worker's state, in one unit, changed only by the named transitions below (decisions
// 0031 and 0042 say why a lane's successors wait here and leave on the answer before them).
//
// A lane (integration, incident) this worker knows is in one of these modes (`modeOf`):
//
// - READY: its head is claimed and waits in the start buffer for a free slot.
// - IN_FLIGHT: its head's attempt is under way (one at a time per lane).
// - RECORDING: no head; the records of what it started are being written, one at a time, in order.
//   The lane is `open` when its last attempt was delivered (a successor a record claims may leave
//   at once), else it waits for that event's retry (a successor is sent back to pending).
// A lane with none of these is forgotten.
//
// Beside its mode a lane may be:
//
// - HELD: its head (ready or in flight) is this worker's and its end not settled yet. A plan of this
//   process that only queues behind held lanes wakes no claim: each head's end claims its successor,
//   or wakes the worker when it found none while a plan was heard of. A lane stops being held as
//   soon as a record found it empty, so a plan heard of after that record wakes the worker itself.
// - PARKED events: successors a record claimed behind the head (at most LANE_CLAIM_DEPTH - 1), in
//   lane order. On the head's 200 the first leaves at once, ahead of other lanes' heads, while the
//   head's record is written; on anything else they all go back to pending before that record is.
// - CONTINUED: the record of its last delivery settled what comes next (claimed the next event, or
//   found none while no plan was heard of), so that delivery's end wakes no claim. (A plan committed
//   while the record ran may be invisible to it, and its wake may have claimed before the record
//   committed: then the lane is claimed again.)
// - BROKEN: a record failed or found its claim lost. That event stays unfinished (its lease sends it
//   again), so nothing more is claimed behind it here; the lane goes back to the claims once this
//   worker has recorded what it started.
//
// Each transition opens with the assertions of what must hold. What the database guarantees (a
// claimed row is its lane's head) is not asserted: a lease run out under event-loop lag can break
// it, and the transitions handle that case as the claims do, by giving rows back.
import assert from "node:assert/strict";
import { laneKey, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { LANE_CLAIM_DEPTH } from "../outbox/lane-statements.ts";
import type { Outcome } from "./record-outcome.ts";
import { newLane, type Claimed, type Lane, type LaneAttempt, type LaneMode } from "./lane-state.ts";

export type LanesOptions = {
  /** Sends claimed rows back to pending; resolves when done (never rejects). */
  giveBack: (rows: ClaimedDelivery[]) => Promise<unknown>;
};

export class Lanes {
  readonly #lanes = new Map<string, Lane>();
  /** Claimed heads not started yet, oldest claim first (a leaving successor goes first). */
  readonly #ready: Claimed[] = [];
  readonly #held = new Set<string>();
  readonly #continued = new Set<string>();
  #plansHeard = 0;
  #stopping = false;
  readonly #giveBack: LanesOptions["giveBack"];

  constructor({ giveBack }: LanesOptions) {
    this.#giveBack = giveBack;
  }

  /** Heads waiting for a slot. */
  get readyCount(): number {
    return this.#ready.length;
  }

  /** Plans heard of (this process's commits, other processes' NOTIFYs, clock jumps), counted. */
  get plansHeard(): number {
    return this.#plansHeard;
  }

  modeOf(key: string): LaneMode | undefined {
    const lane = this.#lanes.get(key);
    if (!lane) return undefined;
    if (lane.inFlight) return "inFlight";
    if (lane.head) return "ready";
    return "recording";
  }

  isHeld(key: string): boolean {
    return this.#held.has(key);
  }

  isContinued(key: string): boolean {
    return this.#continued.has(key);
  }

  isBroken(key: string): boolean {
    return this.#lanes.get(key)?.broken ?? false;
  }

  parkedOf(key: string): ClaimedDelivery[] {
    return this.#lanes.get(key)?.parked.map((p) => p.row) ?? [];
  }

  /** A plan was heard of: a lane whose record finds no successor from now on is not continued. */
  planHeard(): void {
    this.#plansHeard++;
  }

  /**
   * A head was claimed (by a claim, by the planning write, or by a record while its lane was open):
   * the lane is held and the head waits for a slot.
   */
  hold(row: ClaimedDelivery, claimedAtMs: number): void {
    // No precondition: the database makes a claimed row its lane's head (see the header).
    const key = laneKey(row);
    this.#held.add(key);
    const lane = this.#lanes.get(key) ?? this.#newLane(key, row);
    lane.head = row;
    lane.tail = row.id;
    this.#ready.push({ row, claimedAtMs });
  }

  /**
   * A record claimed `row`, directly behind `after`. Parked behind the lane's head, held as its new
   * head when the lane is open, else given back. True when it was held (it may start now).
   */
  offerSuccessor(row: ClaimedDelivery, claimedAtMs: number, after: bigint): boolean {
    const key = laneKey(row);
    const lane = this.#lanes.get(key);
    if (this.#stopping || !lane || lane.broken || lane.tail !== after) {
      void this.#giveBack([row]);
      return false;
    }
    if (lane.head) {
      if (lane.parked.length >= LANE_CLAIM_DEPTH - 1) {
        void this.#giveBack([row]);
        return false;
      }
      this.#park(key, lane, { row, claimedAtMs });
      return false;
    }
    if (!lane.open) {
      // The attempt before it was not delivered: the lane waits for that event's retry.
      this.#giveBackBehind(lane, [row]);
      return false;
    }
    this.#continued.add(key);
    this.hold(row, claimedAtMs);
    return true;
  }

  #park(key: string, lane: Lane, successor: Claimed): void {
    assert.ok(lane.head, "a successor is parked only behind a head");
    assert.ok(lane.parked.length < LANE_CLAIM_DEPTH - 1, "a lane parks at most LANE_CLAIM_DEPTH - 1 events");
    assert.ok(!lane.broken, "a broken lane parks nothing");
    lane.tail = successor.row.id;
    lane.parked.push(successor);
    this.#continued.add(key);
  }

  /** The record of a delivered event found its lane empty: the lane is no longer held. */
  foundNoSuccessor(key: string, plansHeardBefore: number): void {
    assert.ok(this.#lanes.has(key), "a lane is known while a record of it is being written");
    this.#held.delete(key);
    if (this.#plansHeard === plansHeardBefore) this.#continued.add(key);
  }

  /** The next head waiting for a slot, if any. */
  nextReady(): Claimed | undefined {
    return this.#ready.shift();
  }

  /**
   * Heads that waited too long for a slot (their lease may not cover an attempt any more) are not
   * started: they and what is parked behind them go back. Returns every row to give back.
   */
  dropLate(rows: ClaimedDelivery[]): ClaimedDelivery[] {
    const back = [...rows];
    for (const row of rows) {
      // No precondition: a head re-claimed after its lease ran out may be held twice (see the header).
      const key = laneKey(row);
      this.#held.delete(key);
      const lane = this.#lanes.get(key);
      if (lane?.head === row) {
        lane.head = null;
        // What was kept behind it must not leave before it: it goes back too.
        back.push(...lane.parked.map((p) => p.row));
        lane.parked = [];
      }
      if (lane && lane.unrecorded === 0 && lane.parked.length === 0) this.#lanes.delete(key);
    }
    return back;
  }

  /** A head starts its attempt: the lane is in flight, and its record will follow the previous one. */
  startAttempt(row: ClaimedDelivery): LaneAttempt {
    assert.ok(!this.#stopping, "no attempt starts once the worker stops");
    const key = laneKey(row);
    const lane = this.#lanes.get(key) ?? this.#newLane(key, row); // hold() made it but for a double claim
    lane.unrecorded++;
    lane.open = false;
    lane.inFlight = row;
    const previous = lane.recorded;
    let markRecorded!: () => void;
    lane.recorded = new Promise<void>((resolve) => (markRecorded = resolve));
    return { row, key, lane, previous, markRecorded, ended: false, settled: false };
  }

  /**
   * The attempt is over with `state` (its record not written yet). Delivered: the lane is open and
   * its first parked successor leaves now; otherwise what is parked goes back. Returns what the
   * record waits for (the previous record, successors given back), resolving to whether the record
   * may claim a successor; undefined when the attempt had ended already.
   */
  endAttempt(attempt: LaneAttempt, state: Outcome["state"]): Promise<boolean> | undefined {
    if (attempt.ended) return undefined;
    const { lane, row } = attempt;
    assert.ok(!attempt.settled, "an attempt ends before its record settles");
    assert.ok(lane.unrecorded > 0, "an ending attempt's record is still to be written");
    attempt.ended = true;
    if (lane.inFlight === row) lane.inFlight = null;
    if (lane.head === row) lane.head = null;
    const parked = lane.parked;
    lane.parked = [];
    if (state === "delivered") {
      lane.open = true;
      const [next, ...rest] = parked;
      if (next) {
        // Delivered: its successor leaves now, ahead of other lanes' heads, while this record is written.
        lane.head = next.row;
        lane.parked = rest;
        this.#ready.unshift(next);
      }
    } else
      this.#giveBackBehind(
        lane,
        parked.map((p) => p.row),
      );
    // This record waits for the lane's previous one, and for any successor given back meanwhile.
    return attempt.previous.then(() => lane.releasing).then(() => !lane.broken);
  }

  /** The attempt's record failed or found its claim lost: nothing more is taken behind it here. */
  breakLane(attempt: LaneAttempt): void {
    const { lane } = attempt;
    assert.ok(!attempt.settled, "a lane breaks on a record that has not settled");
    assert.ok(lane.unrecorded > 0, "a lane breaks while the failed record is counted");
    lane.broken = true;
    this.#giveBackBehind(
      lane,
      lane.parked.map((p) => p.row),
    );
    lane.parked = [];
  }

  /**
   * The attempt's record is written (or failed). Returns whether the lane's next event may be
   * claimable now and nothing here will claim it (wake the claims); a lane with nothing left is
   * forgotten.
   */
  settleRecord(attempt: LaneAttempt): boolean {
    const { lane, key } = attempt;
    assert.ok(attempt.ended, "a record settles after its attempt ended");
    assert.ok(!attempt.settled, "a record settles once");
    assert.ok(lane.unrecorded > 0, "a settling record was counted");
    attempt.settled = true;
    lane.unrecorded--;
    attempt.markRecorded();
    const continued = this.#continued.delete(key);
    let claimable = false;
    // A successor held here settles the lane at its own end. Otherwise the lane's next event is
    // claimable now, unless the record claimed it or found the lane empty.
    if (!lane.head && lane.parked.length === 0) {
      if (!continued) {
        this.#held.delete(key);
        claimable = true;
      }
      if (lane.unrecorded === 0 && this.#lanes.get(key) === lane) this.#lanes.delete(key);
    }
    return claimable;
  }

  /** The worker stops: no successor is taken from now on. */
  stop(): void {
    this.#stopping = true;
  }

  /** Every head not started and every parked successor, taken out to be given back at stop. */
  takeUnsent(): ClaimedDelivery[] {
    assert.ok(this.#stopping, "unsent heads are taken out only once the worker stops");
    const unsent = this.#ready.splice(0).map((c) => c.row);
    for (const lane of this.#lanes.values()) {
      unsent.push(...lane.parked.map((p) => p.row));
      lane.parked = [];
    }
    return unsent;
  }

  #newLane(key: string, row: ClaimedDelivery): Lane {
    const lane = newLane(row);
    this.#lanes.set(key, lane);
    return lane;
  }

  /** Gives back successors of `lane` that must not leave; the lane's next record waits for them. */
  #giveBackBehind(lane: Lane, rows: ClaimedDelivery[]): void {
    if (rows.length > 0) lane.releasing = Promise.all([lane.releasing, this.#giveBack(rows)]);
  }
}
