import { expect, expectAccessible, test } from "./fixtures/workbench";

test("the Deliveries page lists integrations with their discovery state and the (live) outbox", async ({ page }, testInfo) => {
  await page.goto("/deliveries");
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  const integrations = page.getByRole("region", { name: "Integrations" });
  for (const key of ["north-psap", "central-ems", "fire-rescue"]) await expect(integrations).toContainText(key);
  await expect(integrations.getByRole("button", { name: "Rediscover" })).toHaveCount(3);
  await expect(page.getByTestId("deliveries-table")).toBeVisible();
  await page.getByLabel("Filter by integration").selectOption("north-psap");
  await page.getByLabel("Filter by incident").fill("0b0c5b52-1c0e-4a57-9a57-00000000aaaa");
  await expect(page.getByRole("button", { name: "Resend incident" })).toBeVisible();
  await testInfo.attach("deliveries", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await expectAccessible(page);
});

test("the webhook contract is served as an AsyncAPI 3 document", async ({ request }) => {
  const res = await request.get("/api/docs/webhooks/asyncapi.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { asyncapi: string; channels: Record<string, { address: string }> };
  expect(doc.asyncapi).toBe("3.0.0");
  expect(doc.channels.trackReplaced!.address).toBe("/v3/incidents/{incidentId}/caller/track");
});
