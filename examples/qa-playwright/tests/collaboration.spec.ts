// Collaboration: North PSAP invites Central EMS; the invited agency's receiver
// gets the incident, and the acceptance reaches both receivers.
import { expect, test } from "@workbench/playwright";

test("an invited agency receives the incident, and its acceptance reaches both", async ({
  partnerApi,
  receivers,
  workbench,
}) => {
  const { centralEms } = workbench.seed.agencies;
  const ems = partnerApi.as({ agencyId: centralEms, username: "dispatcher.ems" });
  const incidentId = await partnerApi.createIncident({ label: "needs an ambulance" });

  const invited = await partnerApi.call("POST", `/v1/incidents/${incidentId}/involved-agencies`, {
    agencyId: centralEms,
  });
  expect(invited.status).toBe(201);
  await expect(receivers.embedded("central-ems")).toHaveReceived("POST", "/v3/incidents", { incidentId });

  await ems.expectOk("POST", `/v1/incidents/${incidentId}/collaboration/accept`);
  for (const key of ["north-psap", "central-ems"])
    await expect(receivers.embedded(key)).toHaveReceived("PATCH", "/collaboration", { incidentId });
});
