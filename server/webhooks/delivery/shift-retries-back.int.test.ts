// `clock reset` moves pending retries back by the jump, exactly, once, never before the new now.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { advanceClock, resetClock } from "../../workbench/clock-control.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

const REAL = Date.parse("2026-11-22T06:00:00.000Z");
const MIN = 60_000;
const at = (ms: number) => new Date(REAL + ms);

async function insert(state: "pending" | "delivered", nextAttemptAt: Date) {
  const row = await t.db.webhookDelivery.create({
    data: {
      requestId: randomUUID(),
      integrationKey: "north-psap",
      agencyId: randomUUID(),
      incidentId: randomUUID(),
      changeSeq: 1,
      eventName: "label",
      method: "PATCH",
      path: "/v3/incidents/x/label",
      state,
      producedAt: at(61 * MIN),
      nextAttemptAt,
    },
  });
  return row.id;
}
const due = async (id: bigint) => (await t.db.webhookDelivery.findUniqueOrThrow({ where: { id } })).nextAttemptAt;

describe("shiftPendingRetriesBack, through resetClock", () => {
  it("moves pending due times back by the jump, keeping their backoff, clamped to the new now; once", async () => {
    const clock = new WorkbenchClock({ realNowMs: () => REAL });
    await advanceClock({ db: t.db, clock, byMs: 61 * MIN });
    const backoff = await insert("pending", at(61 * MIN + 4_000)); // a retry 4 s after the advanced now
    const lateInJump = await insert("pending", at(30 * MIN)); // would land before the new now
    const alreadyDue = await insert("pending", at(-5 * MIN));
    const finished = await insert("delivered", at(61 * MIN + 4_000));
    const produced = (await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: backoff } })).producedAt;

    await resetClock({ db: t.db, clock });
    expect(await due(backoff)).toEqual(at(4_000));
    expect(await due(lateInJump)).toEqual(at(0));
    expect(await due(alreadyDue)).toEqual(at(-5 * MIN));
    expect(await due(finished)).toEqual(at(61 * MIN + 4_000));
    expect((await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: backoff } })).producedAt).toEqual(produced);

    // A second reset (already at real time: Δ = 0) and a jump ahead move nothing.
    await resetClock({ db: t.db, clock });
    await advanceClock({ db: t.db, clock, byMs: 10 * MIN });
    expect(await due(backoff)).toEqual(at(4_000));
    // Δ is the stored offset being left (10 min now), not the first jump: 4 s − 10 min clamps to now.
    await resetClock({ db: t.db, clock });
    expect(await due(backoff)).toEqual(at(0));
  });
});
