// The v2 → v3 cutover rehearsal in the dashboard (issue 8): the seeded
// fire-rescue integration delivers to its embedded receiver's v2 routes; its
// /about is switched to 3.0 on the Reference receivers page; after Rediscover on
// the Deliveries page the next change goes to v3 routes, starting with the whole
// incident, and the v2 delivery before it stays delivered once.
import { expect, expectAccessible, test } from "./fixtures/workbench";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";

test.afterEach(async ({ workbench }) => {
  await workbench.receivers.setCapabilities.mutate({ key: "fire-rescue", version: "2.0" });
  await workbench.integrations.rediscover.mutate({ key: "fire-rescue" });
});

test("cutover: events flow to v2 routes, /about switches to 3.0, the next change flows to v3 routes", async ({ page, request }, testInfo) => {
  const token = await request.post("/connect/token", { form: {
    grant_type: "client_credentials", client_id: "partner-cad", client_secret: "partner-cad-secret",
    scope: "incident.create incident.update username.required", agency_context: FIRE, username: "dispatcher.fire",
  } });
  const headers = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  const created = await request.post("/v1/incidents", { headers, data: { routingMode: "TokenAgency", caller: { phoneNumber: "+358401230001" }, label: "Cutover rehearsal" } });
  expect(created.status()).toBe(201);
  const { incidentId } = (await created.json()) as { incidentId: string };

  await page.goto("/deliveries");
  await expect(page.getByTestId("discovery-fire-rescue")).toContainText("active (v2.0, PsapConnector)");
  await page.getByLabel("Filter by integration").selectOption("fire-rescue");
  await page.getByLabel("Filter by incident").fill(incidentId);
  const rows = page.getByTestId("deliveries-table").locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText("POST /v2/incident");
  await expect(rows.nth(0)).toContainText("delivered");

  // The switch: the receiver declares 3.0 (its v3 routes were served all along).
  await page.goto("/reference-receivers");
  const fire = page.getByTestId("receiver-fire-rescue");
  await fire.getByLabel("fire-rescue: version").fill("3.0");
  await fire.getByRole("button", { name: "Set version" }).click();
  await expect(page.getByTestId("about-fire-rescue")).toContainText('"version": "3.0"');

  // The next discovery moves the integration to v3.
  await page.goto("/deliveries");
  await page.getByRole("row", { name: /fire-rescue/ }).getByRole("button", { name: "Rediscover" }).click();
  await expect(page.getByTestId("discovery-fire-rescue")).toContainText("active (v3.0, Publisher)");

  for (const label of ["Cutover rehearsal: v3", "Cutover rehearsal: v3 again"]) {
    expect((await request.patch(`/v1/incidents/${incidentId}/label`, { headers, data: { label } })).status()).toBe(200);
  }
  await page.getByLabel("Filter by integration").selectOption("fire-rescue");
  await page.getByLabel("Filter by incident").fill(incidentId);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText("POST /v2/incident");
  await expect(rows.nth(1)).toContainText("POST /v3/incidents");
  await expect(rows.nth(2)).toContainText(`PATCH /v3/incidents/${incidentId}/label`);
  for (let i = 0; i < 3; i++) await expect(rows.nth(i)).toContainText("delivered");
  await testInfo.attach("cutover", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await expectAccessible(page);
});

test("the legacy contracts are served as a JSON Schema document", async ({ request }) => {
  const res = await request.get("/api/docs/webhooks/legacy-schemas.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { routes: { v2: Record<string, { operation: string; requiredScope: string }> } };
  expect(doc.routes.v2.close).toEqual(expect.objectContaining({ operation: "POST /v2/incident/{incidentId}", requiredScope: "psap.incident.close" }));
});
