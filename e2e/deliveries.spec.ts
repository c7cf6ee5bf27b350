import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

test("the inspector filters by integration (kept in the URL), searches, and is accessible", async ({
  page,
}, testInfo) => {
  await page.goto("/deliveries?integration=central-ems");
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(page.getByLabel("Integration")).toHaveValue("central-ems");
  await page.getByTestId("timeline-details").locator("summary").click(); // collapsed by default
  await expect(page.getByRole("region", { name: /Attempt timeline of central-ems/ })).toBeVisible();
  await page.getByLabel("Search").fill("no-such-event");
  await expect(page).toHaveURL(/q=no-such-event/);
  await expect(page.getByText("No deliveries match.").first()).toBeVisible();
  await attachScreenshot(page, testInfo, "inspector", { fullPage: true });
  await expectAccessible(page);
});

test("the webhook contract is served as an AsyncAPI 3 document", async ({ request }) => {
  const res = await request.get("/api/docs/webhooks/asyncapi.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { asyncapi: string; channels: Record<string, { address: string }> };
  expect(doc.asyncapi).toBe("3.0.0");
  expect(doc.channels.trackReplaced!.address).toBe("/v3/incidents/{incidentId}/caller/track");
});
