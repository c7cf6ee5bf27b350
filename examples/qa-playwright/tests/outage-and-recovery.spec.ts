// A receiver outage: the platform retries from 1 s, doubling, on the workbench
// clock, keeps the incident's order, and everything arrives once the receiver is back.
import { expect, test } from "@workbench/playwright";

test("an outage delays deliveries, and recovery delivers them in order", async ({ partnerApi, receivers, clock }) => {
  const north = receivers.embedded("north-psap");
  await receivers.fault("north-psap", "http-503");

  const incidentId = await partnerApi.createIncident({ label: "during the outage" });
  await partnerApi.setLabel(incidentId, "still down");
  await expect(north).toHaveReceived("POST", "/v3/incidents", { incidentId, status: 503 });

  await receivers.fault("north-psap", "ok");
  await clock.advance("10s"); // the next retry comes due
  await expect(north).toHaveReceived("POST", "/v3/incidents", { incidentId, status: 200 });
  await expect(north).toHaveReceived("PATCH", "/label", { incidentId, status: 200, body: { label: "still down" } });

  const accepted = (await north.received({ incidentId })).filter((r) => r.status === 200).map((r) => r.path);
  expect(accepted).toEqual([`/v3/incidents`, `/v3/incidents/${incidentId}/label`]);
});
