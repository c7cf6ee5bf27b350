// The two shapes of a claim (claim-deliveries.ts): the capped walk of the due
// index, and the lane scan it falls back on when it comes back short. Both
// claim only lane heads; a healthy lane queued behind a long blocked backlog
// is still found; a head whose lease ran out is re-claimed by the walk.
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { claimByWalk, claimDeliveries, releaseClaims } from "./claim-deliveries.ts";

const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const incidentId = (i: number) => `5d1f0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const requestId = (n: number) => `7e570000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const t0 = new Date(Date.UTC(2026, 10, 23, 12));
const at = (s: number) => new Date(t0.getTime() + s * 1000);

let t: TestDatabase;
let n = 0;
beforeEach(async () => {
  n = 0;
  t = await createTestDatabase();
});
afterEach(async () => {
  await t.drop();
});

/** One outbox row per entry, inserted in the order given (ids = lane order). */
async function plan(
  rows: Array<{ integration?: string; incident: number; dueAt: number; state?: "pending" | "delivering" }>,
) {
  for (const r of rows) {
    await t.db.webhookDelivery.create({
      data: {
        requestId: requestId(++n),
        integrationKey: r.integration ?? "north-psap",
        agencyId: AGENCY,
        incidentId: incidentId(r.incident),
        changeSeq: n,
        eventName: "labelChanged",
        method: "PATCH",
        path: `/v3/incidents/${incidentId(r.incident)}/label`,
        body: { n },
        producedAt: at(r.dueAt),
        nextAttemptAt: at(r.dueAt),
        state: r.state ?? "pending",
      },
    });
  }
}
const options = (limit: number, now = at(60)) => ({ now, leaseMs: 30_000, workerId: "w1", limit });
const finish = (ids: bigint[]) =>
  t.db.webhookDelivery.updateMany({
    where: { id: { in: ids } },
    data: { state: "delivered", claimedAt: null, claimedBy: null, leaseExpiresAt: null },
  });

it("the walk claims each lane's head in due order, never a row behind an unfinished head, and the next one once it finished", async () => {
  // Three lanes, three events each, interleaved as concurrent incidents plan them.
  await plan([0, 1, 2].flatMap((k) => [0, 1, 2].map((i) => ({ incident: i, dueAt: k * 3 + i }))));
  const first = await claimByWalk(t.db, options(10));
  expect(first.map((d) => d.requestId).sort()).toEqual([requestId(1), requestId(2), requestId(3)]);
  expect(await claimDeliveries(t.db, options(10))).toEqual([]); // every lane's head is in flight

  await finish([first[1]!.id]);
  expect((await claimByWalk(t.db, options(10))).map((d) => d.requestId)).toEqual([requestId(5)]);
});

it("a healthy lane queued behind a long blocked backlog is found by the lane scan; the capped walk alone stops short", async () => {
  // A receiver down: its head waits for a retry an hour away, 200 due events queued behind it.
  await plan([{ incident: 1, dueAt: 3_600 }]);
  await plan(Array.from({ length: 200 }, (_, i) => ({ incident: 1, dueAt: i / 10 })));
  // Another integration's lane, healthy, produced after all of them.
  await plan([{ integration: "central-ems", incident: 2, dueAt: 30 }]);

  expect(await claimByWalk(t.db, options(1))).toEqual([]);
  const claimed = await claimDeliveries(t.db, options(1));
  expect(claimed.map((d) => [d.integrationKey, d.incidentId])).toEqual([["central-ems", incidentId(2)]]);
});

it("the walk re-claims a head whose lease ran out (its worker died) with the same Service-Request-Id, beside a due head", async () => {
  await plan([
    { incident: 1, dueAt: 0 },
    { incident: 2, dueAt: 1 },
  ]);
  const [dead] = await claimByWalk(t.db, { ...options(1), workerId: "dead", leaseMs: 1 });
  await new Promise((r) => setTimeout(r, 20));
  const reclaimed = await claimByWalk(t.db, options(2));
  expect(reclaimed.map((d) => d.requestId).sort()).toEqual([dead!.requestId, requestId(2)]);
  expect((await t.db.webhookDelivery.findMany({ orderBy: { id: "asc" } })).map((r) => r.claimedBy)).toEqual([
    "w1",
    "w1",
  ]);
});

it("releaseClaims puts a worker's unsent heads back to pending, and never another worker's", async () => {
  await plan([
    { incident: 1, dueAt: 0 },
    { incident: 2, dueAt: 1 },
  ]);
  const [mine] = await claimByWalk(t.db, options(1));
  const [theirs] = await claimByWalk(t.db, { ...options(1), workerId: "w2" });
  expect(await releaseClaims(t.db, { ids: [mine!.id, theirs!.id], workerId: "w1" })).toBe(1);
  const rows = await t.db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
  expect(rows.map((r) => [r.state, r.claimedBy, r.leaseExpiresAt === null])).toEqual([
    ["pending", null, true],
    ["delivering", "w2", false],
  ]);
  expect((await claimDeliveries(t.db, options(5))).map((d) => d.requestId)).toEqual([mine!.requestId]);
});
