// Outcomes finishing in one event-loop turn are written by one statement, yet
// each keeps its own claim guard and its own answer.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { claimDeliveries } from "./claim-deliveries.ts";
import { recordOutcome } from "./record-outcome.ts";

const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const incident = (n: number) => `5d1f0000-0000-4000-8000-00000000000${n}`;
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

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
