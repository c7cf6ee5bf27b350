// Capability negotiation: a receiver of the test's own declares what it takes on
// /about, and the platform sends only that.
import { expect, test, v3Declaration } from "@workbench/playwright";

test("a receiver without labelChanged gets no label events, and gets them once it declares them", async ({
  partnerApi,
  externalReceiver,
}) => {
  const receiver = await externalReceiver.attach("north-psap", {
    declaration: v3Declaration({ labelChanged: false }),
  });
  const incidentId = await partnerApi.createIncident();
  await partnerApi.setLabel(incidentId, "not declared");
  await partnerApi.expectOk("PATCH", `/v1/incidents/${incidentId}/summary`, { summary: "declared" });

  await expect(receiver).toHaveReceived("POST", "/v3/incidents", { incidentId });
  await expect(receiver).toHaveReceived("PATCH", "/summary", { incidentId, body: { summary: "declared" } });
  // Order is per incident: the summary came after the label change, so no label event is still on its way.
  await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId, times: 0, timeout: 0 });

  receiver.declare(v3Declaration());
  await externalReceiver.rediscover("north-psap");
  await partnerApi.setLabel(incidentId, "declared now");
  await expect(receiver).toHaveReceived("PATCH", "/label", { incidentId, body: { label: "declared now" } });
});

test("the embedded receiver's declaration can be toggled too, and is restored after the test", async ({
  partnerApi,
  receivers,
}) => {
  await receivers.capabilities("north-psap", { summaryChanged: false });
  const north = receivers.embedded("north-psap");
  const incidentId = await partnerApi.createIncident();
  await partnerApi.expectOk("PATCH", `/v1/incidents/${incidentId}/summary`, { summary: "not sent" });
  await partnerApi.setLabel(incidentId, "sent");
  await expect(north).toHaveReceived("PATCH", "/label", { incidentId });
  await expect(north).toHaveReceived("PATCH", "/summary", { incidentId, times: 0, timeout: 0 });
});
