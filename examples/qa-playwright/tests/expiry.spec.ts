// The one-hour expiry: an event not accepted within an hour of its production is
// given up, and the incident's next change flows.
import { expect, test } from "@workbench/playwright";

test("an event still refused after the hour expires, and the next change is delivered", async ({
  partnerApi,
  receivers,
  clock,
  workbench,
}) => {
  const north = receivers.embedded("north-psap");
  const incidentId = await partnerApi.createIncident({ label: "before" });
  await expect(north).toHaveReceived("POST", "/v3/incidents", { incidentId, status: 200 });

  await receivers.fault("north-psap", "http-503");
  await partnerApi.setLabel(incidentId, "lost in the outage");
  await expect(north).toHaveReceived("PATCH", "/label", { incidentId, status: 503 });

  await clock.advance("61m");
  await receivers.fault("north-psap", "ok");
  await partnerApi.setLabel(incidentId, "after the hour");
  await expect(north).toHaveReceived("PATCH", "/label", { incidentId, status: 200, body: { label: "after the hour" } });
  await expect(north).toHaveReceived("PATCH", "/label", {
    incidentId,
    status: 200,
    body: { label: "lost in the outage" },
    times: 0,
    timeout: 0,
  });

  const deliveries = await workbench.api.query<Array<{ path: string; state: string }>>("deliveries.list", {
    incidentId,
    integration: "north-psap",
  });
  expect(deliveries.map((d) => d.state)).toEqual(["delivered", "expired", "delivered"]);
});
