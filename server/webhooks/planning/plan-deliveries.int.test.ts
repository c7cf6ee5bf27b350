// The planner's writes in the change's transaction: a lane is written only
// when the plan changed it (most changes leave an introduced lane as it was).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";

const ID = "0e7f0000-0000-4000-8000-000000000002";
let h: WebhookHarness;
beforeEach(async () => { h = await startWebhookHarness(); });
afterEach(async () => { await h.close(); });

/** The lane row's version (xmin changes with every write of the row) and state. */
async function lane() {
  const [row] = await h.database.db.$queryRaw<Array<{ xmin: string; introduced: boolean }>>`
    SELECT xmin::text AS xmin, introduced FROM "WebhookLane" WHERE "integrationKey" = 'north-psap' AND "incidentId" = ${ID}::uuid`;
  return row;
}
const deliveries = () => h.database.db.webhookDelivery.findMany({ where: { incidentId: ID }, orderBy: { id: "asc" }, select: { eventName: true } });

describe("planned writes", () => {
  it("writes the lane when the plan changes it, not when a change leaves it as it was", async () => {
    await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID })));
    const introduced = await lane();
    expect(introduced?.introduced).toBe(true);

    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: "L1" }), { seq: 2 }));
    expect(await lane()).toEqual(introduced); // the same row version: not rewritten
    expect((await deliveries()).map((d) => d.eventName)).toEqual(["created", "label"]);

    // A lane that lost its introduction (as after a cutover) is introduced again, and written.
    await h.database.db.webhookLane.updateMany({ where: { incidentId: ID }, data: { introduced: false } });
    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: "L2" }), { seq: 3 }));
    const again = await lane();
    expect(again?.introduced).toBe(true);
    expect(again?.xmin).not.toBe(introduced?.xmin);
    expect((await deliveries()).map((d) => d.eventName)).toEqual(["created", "label", "created"]);
  });
});
