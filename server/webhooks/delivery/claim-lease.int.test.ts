// The claim lease is real time, not the workbench clock (claim-deliveries.ts):
// jumping the clock ahead while an attempt is in flight must not hand its head
// to a second worker; a worker that really died is re-claimed once its lease ran out.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { claimDeliveries, nextWakeInMs } from "./claim-deliveries.ts";

const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const INCIDENT = "5d1f0000-0000-4000-8000-000000000001";
const producedAt = new Date(Date.UTC(2026, 10, 23, 12));
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.db.webhookDelivery.create({
    data: {
      requestId: "7e570000-0000-4000-8000-000000000001",
      integrationKey: "north-psap",
      agencyId: AGENCY,
      incidentId: INCIDENT,
      changeSeq: 1,
      eventName: "created",
      method: "POST",
      path: "/v3/incidents",
      body: {},
      producedAt,
      nextAttemptAt: producedAt,
    },
  });
});
afterAll(async () => {
  await t.drop();
});

const hours = (h: number) => new Date(producedAt.getTime() + h * 3_600_000);

it("a workbench clock jump does not expire a lease: the head in flight stays with its worker until real time runs out", async () => {
  const first = await claimDeliveries(t.db, { now: producedAt, leaseMs: 2_000, workerId: "w1", limit: 10 });
  expect(first.map((d) => d.requestId)).toEqual(["7e570000-0000-4000-8000-000000000001"]);

  // Two hours later on the workbench clock, a few ms later in real time: nothing to claim.
  expect(await claimDeliveries(t.db, { now: hours(2), leaseMs: 2_000, workerId: "w2", limit: 10 })).toEqual([]);
  // The next wake-up is the lease's real remaining time, not "now" on the jumped clock.
  const wakeIn = await nextWakeInMs(t.db, { now: hours(2) });
  expect(wakeIn).toBeGreaterThan(500);
  expect(wakeIn).toBeLessThanOrEqual(2_000);

  await new Promise((r) => setTimeout(r, 2_100));
  const reclaimed = await claimDeliveries(t.db, { now: hours(2), leaseMs: 2_000, workerId: "w2", limit: 10 });
  expect(reclaimed.map((d) => [d.requestId, d.claimedAt.toISOString()])).toEqual([
    ["7e570000-0000-4000-8000-000000000001", hours(2).toISOString()],
  ]);
  const row = await t.db.webhookDelivery.findFirstOrThrow();
  expect(row.claimedBy).toBe("w2");
});

it("the next wake-up is a due time still ahead, never an event already due behind its lane's busy head", async () => {
  await t.db.webhookAttempt.deleteMany();
  await t.db.webhookDelivery.deleteMany();
  const now = hours(0.5);
  const plan = (n: number, incidentId: string, dueAt: Date) =>
    t.db.webhookDelivery.create({
      data: {
        requestId: `7e570000-0000-4000-8000-0000000001${String(n).padStart(2, "0")}`,
        integrationKey: "north-psap",
        agencyId: AGENCY,
        incidentId,
        changeSeq: n,
        eventName: "labelChanged",
        method: "PATCH",
        path: `/v3/incidents/${incidentId}/label`,
        body: {},
        producedAt,
        nextAttemptAt: dueAt,
      },
    });
  // A head and the event queued behind it, both due; the head is then in flight (a long lease).
  await plan(1, INCIDENT, producedAt);
  await plan(2, INCIDENT, producedAt);
  expect(await claimDeliveries(t.db, { now, leaseMs: 600_000, workerId: "w1", limit: 10 })).toHaveLength(1);
  const wakeIn = await nextWakeInMs(t.db, { now });
  expect(wakeIn).toBeGreaterThan(590_000); // the lease, not 0 for the queued event

  // Another lane's retry 5 s ahead is the next wake-up.
  await plan(3, "5d1f0000-0000-4000-8000-000000000002", new Date(now.getTime() + 5_000));
  expect(await nextWakeInMs(t.db, { now })).toBe(5_000);
});
