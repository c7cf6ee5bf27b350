// The workbench clock goes back (`workbench clock reset`) after a jump ahead —
// the usual end of an expiry demonstration. Deliveries must go on at once:
// nothing minted or scheduled at the advanced time may hold the chain up for
// the hour real time needs to catch up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setReceiverFault } from "../reference-receiver/integration-faults.ts";
import { waitForEvents } from "../webhooks/testing/webhook-harness.ts";
import { advanceClock, resetClock } from "../workbench/clock-control.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
beforeAll(async () => {
  s = await startScenario();
});
afterAll(async () => {
  await s?.close();
});

describe("clock reset after a jump", () => {
  it("the next event is delivered at the first attempt (the Publisher token minted at the advanced time is not reused)", async () => {
    const id = await s.createIncident(await s.requestToken());
    await s.settled(id);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 61 * 60_000 });
    await s.step(await s.requestToken(), "PATCH", `/v1/incidents/${id}/label`, { label: "in the future" });
    await s.settled(id);
    await resetClock({ db: s.runtime.db, clock: s.runtime.clock });
    await s.step(await s.requestToken(), "PATCH", `/v1/incidents/${id}/summary`, { summary: "back to now" });
    await s.settled(id);
    const rows = await s.deliveries("north-psap", id);
    expect(rows.map((d) => [d.eventName, d.state, d.attempts.map((a) => a.status)])).toEqual([
      ["created", "delivered", [200]],
      ["IncidentLabelChanged", "delivered", [200]],
      ["summary", "delivered", [200]],
    ]);
  });

  // Retries scheduled while the clock was ahead carry advanced due times; `clock reset` moves them back
  // by the same amount, never before now (shift-retries-back.ts), once, in the reset's transaction.
  it("a lane whose retry was scheduled during a jump ahead resumes soon after `clock reset`, not a jump's length later", async () => {
    const fault = (mode: string) =>
      setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap", mode });
    const id = await s.createIncident(await s.requestToken());
    await s.settled(id);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 61 * 60_000 });
    await fault("http-503");
    const failed = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id);
    await s.step(await s.requestToken(), "PATCH", `/v1/incidents/${id}/label`, { label: "stalled in the future" });
    const attempt = (await failed)[0]![0];
    const before = await s.runtime.db.webhookDelivery.findFirstOrThrow({ where: { id: BigInt(attempt.deliveryId) } });
    const realNowMs = () => s.runtime.clock.nowMs() - s.runtime.clock.offsetMs;
    expect(before.nextAttemptAt.getTime() - realNowMs()).toBeGreaterThan(60 * 60_000); // due in the advanced time: an hour ahead of real time

    await resetClock({ db: s.runtime.db, clock: s.runtime.clock });
    const after = await s.runtime.db.webhookDelivery.findFirstOrThrow({ where: { id: BigInt(attempt.deliveryId) } });
    // Moved back by the jump (61 min), its backoff (≤ a few seconds) kept: due within seconds, not an hour.
    expect(after.producedAt).toEqual(before.producedAt);
    expect(before.nextAttemptAt.getTime() - after.nextAttemptAt.getTime()).toBeLessThanOrEqual(61 * 60_000);
    expect(after.nextAttemptAt.getTime() - s.runtime.clock.nowMs()).toBeLessThan(10_000);

    const delivered = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === id, 20_000);
    await fault("ok");
    await delivered;
    const rows = await s.deliveries("north-psap", id);
    expect(rows.map((d) => [d.eventName, d.state])).toEqual([
      ["created", "delivered"],
      ["IncidentLabelChanged", "delivered"],
    ]);
    expect(rows[1]).toMatchObject({ requestId: before.requestId, producedAt: before.producedAt });
    expect(rows[1]!.attempts.map((a) => a.status).at(-1)).toBe(200);
  });
});
