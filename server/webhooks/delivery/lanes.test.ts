import { describe, expect, it } from "vitest";
import { laneKey, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { Lanes } from "./lanes.ts";
import { LANE_CLAIM_DEPTH } from "../outbox/lane-statements.ts";

const row = (id: number, incidentId = "inc-1"): ClaimedDelivery => ({
  id: BigInt(id),
  requestId: `req-${id}`,
  integrationKey: "north-psap",
  agencyId: "agency",
  incidentId,
  eventName: "incident.updated",
  method: "POST",
  path: "/v3/incidents",
  body: null,
  producedAt: new Date(0),
  attemptCount: 0,
  claimedAt: new Date(0),
});
const A = laneKey(row(1));
const ids = (rows: ClaimedDelivery[]) => rows.map((r) => Number(r.id));

/** A Lanes whose given-back rows are recorded; each give-back settles when `settleGiveBacks` runs. */
function setUp() {
  const givenBack: number[][] = [];
  const pending: Array<() => void> = [];
  const lanes = new Lanes({
    giveBack: (rows) => {
      givenBack.push(ids(rows));
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  });
  const settleGiveBacks = () => pending.splice(0).forEach((f) => f());
  return { lanes, givenBack, settleGiveBacks };
}

/** A head held, started, delivered: the lane is open, its record not written yet. */
function deliveredHead(lanes: Lanes, id: number) {
  const head = row(id);
  lanes.hold(head, 0);
  lanes.nextReady();
  const attempt = lanes.startAttempt(head);
  const record = lanes.endAttempt(attempt, "delivered");
  return { head, attempt, record };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
};

describe("hold", () => {
  it("makes the lane ready and held, its head last in the start buffer", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 5);
    lanes.hold(row(2, "inc-2"), 6);
    expect(lanes.modeOf(A)).toBe("ready");
    expect(lanes.isHeld(A)).toBe(true);
    expect(lanes.readyCount).toBe(2);
    expect(lanes.nextReady()).toEqual({ row: row(1), claimedAtMs: 5 });
  });
});

describe("startAttempt and endAttempt", () => {
  it("an attempt under way makes the lane in flight; once over, the lane is recording", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 0);
    const attempt = lanes.startAttempt(lanes.nextReady()!.row);
    expect(lanes.modeOf(A)).toBe("inFlight");
    void lanes.endAttempt(attempt, "pending");
    expect(lanes.modeOf(A)).toBe("recording");
  });

  it("an attempt ends once: a second end changes nothing", () => {
    const { lanes } = setUp();
    const { attempt } = deliveredHead(lanes, 1);
    expect(lanes.endAttempt(attempt, "pending")).toBeUndefined();
  });

  it("delivered: the first parked successor leaves at once, ahead of other lanes' heads", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 0);
    const attempt = lanes.startAttempt(lanes.nextReady()!.row);
    lanes.hold(row(9, "inc-2"), 0);
    lanes.offerSuccessor(row(2), 1, 1n);
    lanes.offerSuccessor(row(3), 1, 2n);
    void lanes.endAttempt(attempt, "delivered");
    expect(lanes.nextReady()?.row.id).toBe(2n);
    expect(lanes.modeOf(A)).toBe("ready");
    expect(ids(lanes.parkedOf(A))).toEqual([3]);
  });

  it("not delivered: what is parked goes back, and the record waits for that give-back", async () => {
    const { lanes, givenBack, settleGiveBacks } = setUp();
    lanes.hold(row(1), 0);
    const attempt = lanes.startAttempt(lanes.nextReady()!.row);
    lanes.offerSuccessor(row(2), 1, 1n);
    lanes.offerSuccessor(row(3), 1, 2n);
    const record = lanes.endAttempt(attempt, "pending")!;
    expect(givenBack).toEqual([[2, 3]]);
    expect(lanes.parkedOf(A)).toEqual([]);
    expect(await settled(record)).toBe(false);
    settleGiveBacks();
    expect(await record).toBe(true);
  });

  it("a lane's records are written in order: the next record waits for the previous one", async () => {
    const { lanes } = setUp();
    const first = deliveredHead(lanes, 1);
    lanes.offerSuccessor(row(2), 1, 1n);
    const second = lanes.startAttempt(lanes.nextReady()!.row);
    const secondRecord = lanes.endAttempt(second, "delivered")!;
    expect(await settled(secondRecord)).toBe(false);
    lanes.settleRecord(first.attempt);
    expect(await secondRecord).toBe(true);
  });

  it("refuses to start an attempt once the worker stops", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 0);
    lanes.stop();
    expect(() => lanes.startAttempt(row(1))).toThrow(/no attempt starts once the worker stops/);
  });
});

describe("offerSuccessor", () => {
  it("parks a successor behind a head, in lane order, and marks the lane continued", () => {
    const { lanes, givenBack } = setUp();
    lanes.hold(row(1), 0);
    expect(lanes.offerSuccessor(row(2), 1, 1n)).toBe(false);
    expect(lanes.offerSuccessor(row(3), 1, 2n)).toBe(false);
    expect(ids(lanes.parkedOf(A))).toEqual([2, 3]);
    expect(lanes.isContinued(A)).toBe(true);
    expect(givenBack).toEqual([]);
  });

  it("gives back a successor that does not follow the lane's last event, or past the depth", () => {
    const { lanes, givenBack } = setUp();
    lanes.hold(row(1), 0);
    lanes.offerSuccessor(row(3), 1, 2n); // not directly behind 1
    for (let id = 2; id <= LANE_CLAIM_DEPTH; id++) lanes.offerSuccessor(row(id), 1, BigInt(id - 1));
    lanes.offerSuccessor(row(LANE_CLAIM_DEPTH + 1), 1, BigInt(LANE_CLAIM_DEPTH));
    expect(ids(lanes.parkedOf(A))).toEqual([2, 3, 4].slice(0, LANE_CLAIM_DEPTH - 1));
    expect(givenBack).toEqual([[3], [LANE_CLAIM_DEPTH + 1]]);
  });

  it("gives back a successor of an unknown lane, or any once the worker stops", () => {
    const { lanes, givenBack } = setUp();
    expect(lanes.offerSuccessor(row(2), 1, 1n)).toBe(false);
    lanes.hold(row(1), 0);
    lanes.stop();
    expect(lanes.offerSuccessor(row(2), 1, 1n)).toBe(false);
    expect(givenBack).toEqual([[2], [2]]);
  });

  it("holds a successor as the new head when the lane is open (its last attempt delivered)", () => {
    const { lanes } = setUp();
    deliveredHead(lanes, 1);
    expect(lanes.offerSuccessor(row(2), 7, 1n)).toBe(true);
    expect(lanes.modeOf(A)).toBe("ready");
    expect(lanes.isContinued(A)).toBe(true);
    expect(lanes.nextReady()).toEqual({ row: row(2), claimedAtMs: 7 });
  });

  it("sends a successor back behind a lane whose last attempt was not delivered; that record waits", async () => {
    const { lanes, givenBack, settleGiveBacks } = setUp();
    const first = deliveredHead(lanes, 1);
    lanes.offerSuccessor(row(2), 1, 1n); // leaves at once: the lane is open
    const second = lanes.startAttempt(lanes.nextReady()!.row);
    const secondRecord = lanes.endAttempt(second, "pending")!; // 2 failed while 1's record runs
    expect(lanes.offerSuccessor(row(3), 1, 2n)).toBe(false); // 1's record claimed 3 behind 2
    expect(givenBack).toEqual([[3]]);
    lanes.settleRecord(first.attempt);
    expect(await settled(secondRecord)).toBe(false); // 2's record waits for 3 to be pending again
    settleGiveBacks();
    expect(await secondRecord).toBe(true);
  });
});

describe("breakLane", () => {
  it("gives back what is parked, takes no successor behind it, and its next record claims none", async () => {
    const { lanes, givenBack, settleGiveBacks } = setUp();
    const first = deliveredHead(lanes, 1);
    lanes.offerSuccessor(row(2), 1, 1n); // leaves at once: the lane is open
    lanes.offerSuccessor(row(3), 1, 2n); // parked behind 2
    const second = lanes.startAttempt(lanes.nextReady()!.row);
    lanes.breakLane(first.attempt);
    expect(lanes.isBroken(A)).toBe(true);
    expect(givenBack).toEqual([[3]]);
    expect(lanes.offerSuccessor(row(4), 1, 3n)).toBe(false);
    expect(givenBack).toEqual([[3], [4]]);
    lanes.settleRecord(first.attempt);
    settleGiveBacks();
    expect(await lanes.endAttempt(second, "delivered")).toBe(false);
  });
});

describe("foundNoSuccessor", () => {
  it("the lane is no longer held, and continued when no plan was heard of meanwhile", () => {
    const { lanes } = setUp();
    deliveredHead(lanes, 1);
    lanes.foundNoSuccessor(A, lanes.plansHeard);
    expect(lanes.isHeld(A)).toBe(false);
    expect(lanes.isContinued(A)).toBe(true);
  });

  it("a plan heard of while the record ran leaves the lane not continued (its end wakes the claims)", () => {
    const { lanes } = setUp();
    const { attempt } = deliveredHead(lanes, 1);
    const before = lanes.plansHeard;
    lanes.planHeard();
    lanes.foundNoSuccessor(A, before);
    expect(lanes.isHeld(A)).toBe(false);
    expect(lanes.isContinued(A)).toBe(false);
    expect(lanes.settleRecord(attempt)).toBe(true);
  });

  it("asserts the lane is known while its record is written", () => {
    const { lanes } = setUp();
    expect(() => lanes.foundNoSuccessor(A, 0)).toThrow(/a lane is known/);
  });
});

describe("settleRecord", () => {
  it("a lane whose record settled nothing: claimable, no longer held, and forgotten", () => {
    const { lanes } = setUp();
    const { attempt } = deliveredHead(lanes, 1);
    expect(lanes.settleRecord(attempt)).toBe(true);
    expect(lanes.isHeld(A)).toBe(false);
    expect(lanes.modeOf(A)).toBeUndefined();
  });

  it("a continued lane is not claimable: its record claimed the next event or found none", () => {
    const { lanes } = setUp();
    const { attempt } = deliveredHead(lanes, 1);
    lanes.foundNoSuccessor(A, lanes.plansHeard);
    expect(lanes.settleRecord(attempt)).toBe(false);
    expect(lanes.isContinued(A)).toBe(false); // read once
    expect(lanes.modeOf(A)).toBeUndefined();
  });

  it("a lane with a successor held stays, and settles at that successor's end", () => {
    const { lanes } = setUp();
    const { attempt } = deliveredHead(lanes, 1);
    lanes.offerSuccessor(row(2), 1, 1n);
    expect(lanes.settleRecord(attempt)).toBe(false);
    expect(lanes.isHeld(A)).toBe(true);
    expect(lanes.modeOf(A)).toBe("ready");
  });

  it("asserts a record settles once, after its attempt ended", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 0);
    const attempt = lanes.startAttempt(lanes.nextReady()!.row);
    expect(() => lanes.settleRecord(attempt)).toThrow(/after its attempt ended/);
    void lanes.endAttempt(attempt, "pending");
    lanes.settleRecord(attempt);
    expect(() => lanes.settleRecord(attempt)).toThrow(/settles once/);
  });
});

describe("dropLate", () => {
  it("a late head goes back with what is parked behind it, and its lane is forgotten", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 0);
    lanes.offerSuccessor(row(2), 1, 1n);
    lanes.offerSuccessor(row(3), 1, 2n);
    const late = lanes.nextReady()!.row;
    expect(ids(lanes.dropLate([late]))).toEqual([1, 2, 3]);
    expect(lanes.isHeld(A)).toBe(false);
    expect(lanes.modeOf(A)).toBeUndefined();
  });

  it("a lane with a record still to write is kept", () => {
    const { lanes } = setUp();
    deliveredHead(lanes, 1);
    lanes.offerSuccessor(row(2), 1, 1n);
    expect(ids(lanes.dropLate([lanes.nextReady()!.row]))).toEqual([2]);
    expect(lanes.modeOf(A)).toBe("recording");
  });
});

describe("takeUnsent", () => {
  it("takes out every head not started and every parked successor, only once stopping", () => {
    const { lanes } = setUp();
    lanes.hold(row(1), 0);
    lanes.startAttempt(lanes.nextReady()!.row);
    lanes.offerSuccessor(row(2), 1, 1n);
    lanes.hold(row(9, "inc-2"), 0);
    expect(() => lanes.takeUnsent()).toThrow(/once the worker stops/);
    lanes.stop();
    expect(ids(lanes.takeUnsent())).toEqual([9, 2]);
    expect(lanes.readyCount).toBe(0);
    expect(lanes.parkedOf(A)).toEqual([]);
  });
});
