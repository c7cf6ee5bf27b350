// Outcomes finishing in one event-loop turn are written by one statement, yet
// each keeps its own claim guard and its own answer.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { claimDeliveries } from "./claim-deliveries.ts";
import { laneKey, type ClaimedDelivery } from "../outbox/outbox-row.ts";
import { recordOutcome } from "./record-outcome.ts";
import { LANE_CLAIM_DEPTH } from "../outbox/lane-statements.ts";

const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const incident = (n: number) => `5d1f0000-0000-4000-8000-00000000000${n}`;
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

/** An empty outbox, and `plan` to add a track append to it (requestIds under `prefix`), produced on November `day`. */
async function freshOutbox(prefix: string, day: number) {
  await t.db.webhookAttempt.deleteMany();
  await t.db.webhookDelivery.deleteMany();
  const producedAt = new Date(Date.UTC(2026, 10, day, 12));
  const now = new Date(producedAt.getTime() + 1_000);
  let n = 0;
  const plan = (incidentId: string, dueAt = producedAt) =>
    t.db.webhookDelivery.create({
      data: {
        requestId: `${prefix}-0000-4000-8000-0000000000${String(++n).padStart(2, "0")}`,
        integrationKey: "north-psap",
        agencyId: AGENCY,
        incidentId,
        changeSeq: n,
        eventName: "newLocation",
        method: "POST",
        path: `/v3/incidents/${incidentId}/caller/track`,
        body: { n },
        producedAt,
        nextAttemptAt: dueAt,
      },
    });
  return { producedAt, now, plan };
}

it("records a turn's outcomes in one batch: the current claim applies (attempt row + state), a stale claim changes nothing", async () => {
  const producedAt = new Date(Date.UTC(2026, 10, 22, 12));
  for (const n of [1, 2]) {
    await t.db.webhookDelivery.create({
      data: {
        requestId: `7e570000-0000-4000-8000-00000000000${n}`,
        integrationKey: "north-psap",
        agencyId: AGENCY,
        incidentId: incident(n),
        changeSeq: 1,
        eventName: "created",
        method: "POST",
        path: "/v3/incidents",
        body: { n },
        producedAt,
        nextAttemptAt: producedAt,
      },
    });
  }
  const now = new Date(producedAt.getTime() + 1_000);
  const claimed = await claimDeliveries(t.db, { now, leaseMs: 30_000, workerId: "w1", limit: 10 });
  expect(claimed).toHaveLength(2);
  const attempt = {
    attempt: 1,
    startedAt: now,
    durationMs: 5,
    url: "http://r.test/v3/incidents",
    requestHeaders: { authorization: "Bearer [redacted]" },
    status: 200,
    responseHeaders: null,
    bodyExcerpt: "",
    error: null,
  };
  const stale = { ...claimed[1]!, claimedAt: new Date(now.getTime() - 60_000) };
  const applied = await Promise.all([
    recordOutcome(t.db, { delivery: claimed[0]!, workerId: "w1", now, attempt, outcome: { state: "delivered" } }),
    recordOutcome(t.db, { delivery: stale, workerId: "w1", now, attempt, outcome: { state: "delivered" } }),
  ]);
  expect(applied).toEqual([true, false]);
  const rows = await t.db.webhookDelivery.findMany({ orderBy: { id: "asc" }, include: { attempts: true } });
  expect(rows.map((r) => [r.state, r.attemptCount, r.attempts.length, r.claimedBy])).toEqual([
    ["delivered", 1, 1, null],
    ["delivering", 0, 0, "w1"],
  ]);
  expect(rows[0]!.attempts[0]).toMatchObject({
    status: 200,
    responseHeaders: null,
    requestHeaders: { authorization: "Bearer [redacted]" },
  });
});

it("a delivered head claims its lane's next due event in the same statement, or says its lane is empty; a retry, another lane or a later event does neither", async () => {
  const { now, plan } = await freshOutbox("7e571000", 23);
  // Lane 3: head + next (due). Lane 4: head + next, the head will be retried. Lane 5: head + a next
  // not yet due. Lane 6: a head alone (lane 7's event is not its successor).
  const [head3, next3] = [await plan(incident(3)), await plan(incident(3))];
  const [head4] = [await plan(incident(4)), await plan(incident(4))];
  const [head5] = [await plan(incident(5)), await plan(incident(5), new Date(now.getTime() + 60_000))];
  const head6 = await plan(incident(6));
  await plan(incident(7));
  const claimed = await claimDeliveries(t.db, { now, leaseMs: 30_000, workerId: "w1", limit: 4 });
  const byId = new Map(claimed.map((c) => [c.id, c]));
  expect([head3.id, head4.id, head5.id, head6.id].every((id) => byId.has(id))).toBe(true);

  const taken: ClaimedDelivery[] = [];
  const emptied: string[] = [];
  const claimNext = {
    leaseMs: 30_000,
    take: (row: ClaimedDelivery) => taken.push(row),
    plansHeard: () => 7,
    none: (lane: string, plansHeardBefore: number) => emptied.push(`${lane} (${plansHeardBefore})`),
  };
  const attempt = (status: number) => ({
    attempt: 1,
    startedAt: now,
    durationMs: 5,
    url: "http://r.test/",
    requestHeaders: {},
    status,
    responseHeaders: null,
    bodyExcerpt: "",
    error: status === 200 ? null : `HTTP ${status}`,
  });
  const record = (id: bigint, status: number) =>
    recordOutcome(t.db, {
      delivery: byId.get(id)!,
      workerId: "w1",
      now,
      attempt: attempt(status),
      outcome: status === 200 ? { state: "delivered" } : { state: "pending", retryAt: new Date(now.getTime() + 1_000) },
      claimNext,
    });
  expect(
    await Promise.all([record(head3.id, 200), record(head4.id, 503), record(head5.id, 200), record(head6.id, 200)]),
  ).toEqual([true, true, true, true]);

  // Only lane 3's next event was taken, as a claim of this worker at the record's time.
  expect(taken).toEqual([
    expect.objectContaining({ id: next3.id, incidentId: incident(3), claimedAt: now, body: { n: 2 } }),
  ]);
  // Only lane 6 is said to be empty: lane 5 has a next event (not due yet), lane 4's head is retried.
  expect(emptied).toEqual([`${laneKey(head6)} (7)`]);
  const next = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: next3.id } });
  expect([next.state, next.claimedBy, next.claimedAt]).toEqual(["delivering", "w1", now]);
  expect(next.leaseExpiresAt).not.toBeNull();
  const others = await t.db.webhookDelivery.findMany({
    where: { incidentId: { in: [incident(4), incident(5), incident(7)] } },
    orderBy: { id: "asc" },
  });
  expect(others.map((r) => [r.incidentId, r.state])).toEqual([
    [incident(4), "pending"],
    [incident(4), "pending"],
    [incident(5), "delivered"],
    [incident(5), "pending"],
    [incident(7), "pending"],
  ]);
  // The taken successor is a claim like any other: its own outcome applies.
  expect(
    await recordOutcome(t.db, {
      delivery: taken[0]!,
      workerId: "w1",
      now,
      attempt: attempt(200),
      outcome: { state: "delivered" },
    }),
  ).toBe(true);
});

it("claims the events after the successor too, up to LANE_CLAIM_DEPTH, in lane order and each behind the row it follows, only while every row before it is claimed now or this worker's already", async () => {
  const { now, plan } = await freshOutbox("7e572000", 24);
  const D = LANE_CLAIM_DEPTH;
  const events = async (n: number, incidentId: string, notDue: number[] = []) => {
    const rows = [];
    for (let i = 0; i < n; i++)
      rows.push(await plan(incidentId, notDue.includes(i) ? new Date(now.getTime() + 60_000) : undefined));
    return rows;
  };
  // Lane 1: a head and one due event more than the depth. Lane 2: the same, its next event w1's
  // already (claimed ahead). Lane 3: the next one is another worker's. Lane 4: the next one is not due
  // yet. Lane 5: the one after the next is not due yet, and the one after that is.
  const lane1 = await events(D + 2, incident(1));
  const lane2 = await events(D + 2, incident(2));
  const lane3 = await events(3, incident(3));
  const lane4 = await events(3, incident(4), [1]);
  const lane5 = await events(4, incident(5), [2]);
  const heads = await claimDeliveries(t.db, { now, leaseMs: 30_000, workerId: "w1", limit: 5 });
  expect(heads.map((h) => h.id).sort()).toEqual([lane1, lane2, lane3, lane4, lane5].map((l) => l[0]!.id).sort());
  const holdAs = (id: bigint, workerId: string) =>
    t.db.webhookDelivery.update({
      where: { id },
      data: { state: "delivering", claimedBy: workerId, claimedAt: now, leaseExpiresAt: new Date(Date.now() + 30_000) },
    });
  await holdAs(lane2[1]!.id, "w1");
  await holdAs(lane3[1]!.id, "w2");

  const taken: Array<[bigint, bigint]> = [];
  const claimNext = {
    leaseMs: 30_000,
    take: (row: ClaimedDelivery, _claimedAtMs: number, after: bigint) => taken.push([row.id, after]),
    plansHeard: () => 0,
    none: () => {},
  };
  const delivered = (delivery: ClaimedDelivery) =>
    recordOutcome(t.db, {
      delivery,
      workerId: "w1",
      now,
      attempt: null,
      outcome: { state: "delivered" },
      claimNext,
    });
  expect(await Promise.all(heads.map(delivered))).toEqual([true, true, true, true, true]);

  // Each taken row names the row it follows; lane 2's first is w1's already and is not taken again.
  const behind = (lane: typeof lane1, from: number, to: number) =>
    lane.slice(from, to + 1).map((r, i) => [r.id, lane[from + i - 1]!.id]);
  expect(taken).toEqual([...behind(lane1, 1, D), ...behind(lane2, 2, D), ...behind(lane5, 1, 1)]);
  const states = await t.db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
  const byLane = (incidentId: string) =>
    states.filter((r) => r.incidentId === incidentId).map((r) => `${r.state}${r.claimedBy ? ` ${r.claimedBy}` : ""}`);
  const claimedAhead = Array<string>(D).fill("delivering w1");
  expect(byLane(incident(1))).toEqual(["delivered", ...claimedAhead, "pending"]);
  expect(byLane(incident(2))).toEqual(["delivered", ...claimedAhead, "pending"]);
  expect(byLane(incident(3))).toEqual(["delivered", "delivering w2", "pending"]);
  expect(byLane(incident(4))).toEqual(["delivered", "pending", "pending"]);
  expect(byLane(incident(5))).toEqual(["delivered", "delivering w1", "pending", "pending"]);
});
