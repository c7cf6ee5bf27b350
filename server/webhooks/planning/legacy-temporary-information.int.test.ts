// A v1/v2 receiver gets the caller's temporary-information warning in the member its frozen contract
// has (decision 0063), whichever way the incident body is planned: with the change, later from the
// change record when the change was held for a declaration, and in a resend from the incident's
// current state.
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestIncident } from "../../incidents/testing/create-test-incident.ts";
import { setTemporaryInformation } from "../../incidents/temporary-information.ts";
import { resendIncident } from "../admin/resend-incident.ts";
import { startWebhookHarness, type WebhookHarness } from "../testing/webhook-harness.ts";
import { planHeldChanges } from "./plan-held-changes.ts";

let h: WebhookHarness;
beforeEach(async () => {
  h = await startWebhookHarness();
});
afterEach(() => h.close());

/** north-psap declares 2.0 (accepted), or nothing (its changes are held). */
async function declareV2(declared: boolean) {
  if (!declared) return h.runtime.db.webhookCapabilities.deleteMany({ where: { integrationKey: "north-psap" } });
  await h.runtime.db.webhookCapabilities.update({
    where: { integrationKey: "north-psap" },
    data: { version: "2.0", majorVersion: 2, flags: [] },
  });
}

async function incidentWithWarning() {
  const incident = await createTestIncident(h.runtime.db, h.clock);
  const { result } = await setTemporaryInformation({
    db: h.runtime.db,
    clock: h.clock,
    incidentId: incident.id,
    actor: "temporary-test",
    warning: "Gas leak in the building",
    validForS: 600,
  });
  return { incidentId: incident.id, expiresAtUtc: result.expiresAtUtc };
}

/** The temporaryInformation of each POST /v2/incident body planned for the incident, in lane order. */
const planned = async (incidentId: string) =>
  (
    await h.runtime.db.webhookDelivery.findMany({
      where: { incidentId, integrationKey: "north-psap", path: "/v2/incident" },
      orderBy: { id: "asc" },
      select: { body: true },
    })
  ).map(
    (d) => (d.body as { incident: { caller: { temporaryInformation: unknown } } }).incident.caller.temporaryInformation,
  );

it("is planned with the change, from the change record once a held change is planned, and in a resend", async () => {
  await declareV2(true);
  const live = await incidentWithWarning();
  const warned = { text: "Gas leak in the building", expiresAtUtc: live.expiresAtUtc };
  expect(await planned(live.incidentId)).toEqual([null, warned]);

  await declareV2(false);
  const held = await incidentWithWarning();
  expect(await planned(held.incidentId)).toEqual([]);
  await h.runtime.db.webhookCapabilities.create({
    data: {
      integrationKey: "north-psap",
      status: "active",
      version: "2.0",
      majorVersion: 2,
      flags: [],
      credential: "PsapConnector",
      checkedAt: h.clock.now(),
      nextCheckAt: new Date(h.clock.nowMs() + 3_600_000),
    },
  });
  await planHeldChanges(h.runtime, "north-psap");
  expect(await planned(held.incidentId)).toEqual([null, { ...warned, expiresAtUtc: held.expiresAtUtc }]);

  await resendIncident({ runtime: h.runtime, incidentId: live.incidentId, integrationKey: "north-psap" });
  expect(await planned(live.incidentId)).toEqual([null, warned, warned]);
});
