// The v2 → v3 cutover rehearsal in the dashboard (Versioning rule 3): the seeded
// fire-rescue integration delivers to its embedded receiver's v2 routes; its
// /about is switched to 3.0 on the Reference receivers page; after Rediscover on
// the Admin page the next change goes to v3 routes, starting with the whole
// incident, and the v2 delivery before it stays delivered once.
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";

test.afterEach(async ({ workbench }) => {
  await workbench.receivers.setCapabilities.mutate({ key: "fire-rescue", version: "2.0" });
  await workbench.integrations.rediscover.mutate({ key: "fire-rescue" });
});

test("cutover: events flow to v2 routes, /about switches to 3.0, the next change flows to v3 routes", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  const token = await request.post("/connect/token", {
    form: {
      grant_type: "client_credentials",
      client_id: "partner-cad",
      client_secret: "partner-cad-secret",
      scope: "incident.create incident.update username.required",
      agency_context: FIRE,
      username: "dispatcher.fire",
    },
  });
  const headers = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  const created = await request.post("/v1/incidents", {
    headers,
    data: { routingMode: "TokenAgency", caller: { phoneNumber: "+358401230001" }, label: "Cutover rehearsal" },
  });
  expect(created.status()).toBe(201);
  const { incidentId } = (await created.json()) as { incidentId: string };

  // Discovery: the Admin page shows what fire-rescue's /about declared and which credential it accepted.
  await page.goto("/admin");
  const integration = page.getByTestId("integration-fire-rescue");
  await expect(integration).toContainText("active · v2.0");
  await expect(integration).toContainText("/about credential: PsapConnector");
  const deliveries = async () =>
    (await workbench.deliveries.list.query({ integration: "fire-rescue", incidentId })).map(
      (d) => `${d.method} ${d.path} ${d.state}`,
    );
  await expect.poll(deliveries).toEqual(["POST /v2/incident delivered"]);

  // The switch: the receiver declares 3.0 (its v3 routes were served all along).
  await page.goto("/reference-receivers");
  const fire = page.getByTestId("receiver-fire-rescue");
  await fire.getByLabel("fire-rescue: version").fill("3.0");
  await fire.getByRole("button", { name: "Set version" }).click();
  await expect(page.getByTestId("about-fire-rescue")).toContainText('"version": "3.0"');

  // The next discovery moves the integration to v3.
  await page.goto("/admin");
  await integration.getByRole("button", { name: "Rediscover" }).click();
  await expect(integration).toContainText("active · v3.0");
  await expect(integration).toContainText("/about credential: Publisher");

  for (const label of ["Cutover rehearsal: v3", "Cutover rehearsal: v3 again"]) {
    expect((await request.patch(`/v1/incidents/${incidentId}/label`, { headers, data: { label } })).status()).toBe(200);
  }
  // Nothing lost, nothing sent twice: the v2 create, then v3 starts with the whole incident, then the label change.
  await expect
    .poll(deliveries)
    .toEqual([
      "POST /v2/incident delivered",
      "POST /v3/incidents delivered",
      `PATCH /v3/incidents/${incidentId}/label delivered`,
    ]);
  await page.goto(`/deliveries?integration=fire-rescue&incident=${incidentId}`);
  await expect(page.getByTestId("delivery-row")).toHaveCount(3);
  await attachScreenshot(page, testInfo, "cutover", { fullPage: true });
  await expectAccessible(page);
});

test("the legacy contracts are served as a JSON Schema document", async ({ request }) => {
  const res = await request.get("/api/docs/webhooks/legacy-schemas.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { routes: { v2: Record<string, { operation: string; requiredScope: string }> } };
  expect(doc.routes.v2.close).toEqual(
    expect.objectContaining({ operation: "POST /v2/incident/{incidentId}", requiredScope: "psap.incident.close" }),
  );
});
