// The planner's writes in the change's transaction: a lane is written only
// when the plan changed it (most changes leave an introduced lane as it was).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { inspectDeliveries } from "../admin/inspect-deliveries.ts";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";

const ID = "0e7f0000-0000-4000-8000-000000000002";
let h: WebhookHarness;
beforeEach(async () => {
  h = await startWebhookHarness();
});
afterEach(async () => {
  await h.close();
});

/** The lane row's version (xmin changes with every write of the row) and state. */
async function lane() {
  const [row] = await h.database.db.$queryRaw<Array<{ xmin: string; introduced: boolean }>>`
    SELECT xmin::text AS xmin, introduced FROM "WebhookLane" WHERE "integrationKey" = 'north-psap' AND "incidentId" = ${ID}::uuid`;
  return row;
}
const deliveries = () =>
  h.database.db.webhookDelivery.findMany({
    where: { incidentId: ID },
    orderBy: { id: "asc" },
    select: { eventName: true },
  });

describe("planned writes", () => {
  it("gives each delivery a time-ordered request id (UUID v7) of its production time (decision 0058)", async () => {
    await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID })));
    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: "L1" }), { seq: 2 }));
    const rows = await h.database.db.webhookDelivery.findMany({
      where: { incidentId: ID },
      orderBy: { id: "asc" },
      select: { requestId: true, producedAt: true },
    });
    expect(rows).toHaveLength(2);
    for (const { requestId, producedAt } of rows) {
      expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(parseInt(requestId.replaceAll("-", "").slice(0, 12), 16)).toBe(producedAt.getTime());
    }
  });

  it("writes the lane when the plan changes it, not when a change leaves it as it was", async () => {
    await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id: ID })));
    const introduced = await lane();
    expect(introduced?.introduced).toBe(true);

    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: "L1" }), { seq: 2 }));
    expect(await lane()).toEqual(introduced); // the same row version: not rewritten
    expect((await deliveries()).map((d) => d.eventName)).toEqual(["created", "IncidentLabelChanged"]);

    // A lane that lost its introduction (as after a cutover) is introduced again, and written.
    await h.database.db.webhookLane.updateMany({ where: { incidentId: ID }, data: { introduced: false } });
    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: "L2" }), { seq: 3 }));
    const again = await lane();
    expect(again?.introduced).toBe(true);
    expect(again?.xmin).not.toBe(introduced?.xmin);
    expect((await deliveries()).map((d) => d.eventName)).toEqual(["created", "IncidentLabelChanged", "created"]);
  });

  it("plans Test incidents for a receiver whatever its allowsMonitoring says (advisory: recorded, never acted on)", async () => {
    for (const [allowsMonitoring, id] of [
      [false, "0e7f0000-0000-4000-8000-0000000000a1"],
      [true, "0e7f0000-0000-4000-8000-0000000000a2"],
    ] as const) {
      const { count } = await h.database.db.webhookCapabilities.updateMany({
        where: { integrationKey: "north-psap" },
        data: { allowsMonitoring },
      });
      expect(count).toBe(1);
      await h.commit(buildChange({ kind: "incident.created" }, buildSnapshot({ id, purpose: "Test" })));
      const planned = await h.database.db.webhookDelivery.findMany({
        where: { incidentId: id, integrationKey: "north-psap" },
        select: { eventName: true },
      });
      expect({ allowsMonitoring, events: planned.map((d) => d.eventName) }).toEqual({
        allowsMonitoring,
        events: ["created"],
      });
    }
  });

  it("names the events the spec names (IncidentLabelChanged, IncidentLiveVideoEndedV3), in the outbox and the inspector", async () => {
    const video = {
      state: "Active" as const,
      activatedAtUtc: "2026-11-22T06:00:00.000Z",
      endedAtUtc: null,
      portalUrl: "http://localhost:3000/portal/incidents/x/video",
    };
    const base = buildSnapshot({ id: ID });
    await h.commit(buildChange({ kind: "incident.created" }, base));
    await h.commit(buildChange({ kind: "labelChanged" }, buildSnapshot({ id: ID, label: null }), { seq: 2 }));
    await h.commit(
      buildChange(
        { kind: "caller.liveVideo.activated" },
        { ...base, caller: { ...base.caller, liveVideo: video } },
        { seq: 3 },
      ),
    );
    await h.commit(
      buildChange(
        { kind: "caller.liveVideo.ended" },
        {
          ...base,
          caller: { ...base.caller, liveVideo: { ...video, state: "Ended", endedAtUtc: "2026-11-22T06:05:00.000Z" } },
        },
        { seq: 4 },
      ),
    );
    const page = await inspectDeliveries({ db: h.database.db, input: { incidentId: ID, integration: "north-psap" } });
    expect(page.items.map((i) => i.event).reverse()).toEqual([
      "created",
      "IncidentLabelChanged",
      "liveVideoActivated",
      "IncidentLiveVideoEndedV3",
    ]);
    const found = await inspectDeliveries({ db: h.database.db, input: { search: "incidentlabelchanged" } });
    expect(found.items.map((i) => i.path)).toEqual([`/v3/incidents/${ID}/label`]);
    const label = await h.database.db.webhookDelivery.findFirstOrThrow({
      where: { incidentId: ID, eventName: "IncidentLabelChanged" },
    });
    expect(label.body).toEqual({ label: null });
  });
});
