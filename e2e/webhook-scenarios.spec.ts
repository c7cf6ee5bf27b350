// QA scenarios on the delivery inspector: an outage (retries visible, recovery in order), a
// capability toggle turning an event into `changed`, and a 61-minute clock jump showing expiry.
// Seeded through the real token endpoint and /v1; faults and the clock through tRPC.
import { createIncident, partnerToken, setLabel } from "./fixtures/partner-api";
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

test.afterEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
  await workbench.receivers.setFault.mutate({ key: "north-psap", mode: "ok" });
  await workbench.receivers.setCapabilities.mutate({ key: "north-psap", set: { "incident.labelChanged": true } });
});

test("outage: the head retries with backoff, the next event waits behind it, recovery delivers in order", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  await workbench.receivers.setFault.mutate({ key: "north-psap", mode: "http-503" });
  const token = await partnerToken(request);
  const id = await createIncident(request, token, "QA outage");
  await setLabel(request, token, id, "QA outage, label changed");
  await page.goto(`/deliveries?incident=${id}`);
  const rows = page.getByTestId("delivery-row");
  const created = rows.filter({ hasText: "POST /v3/incidents" }).filter({ hasNotText: "/label" });
  const label = rows.filter({ hasText: "/label" });
  // Retries on the workbench clock: each jump wakes the worker and makes the next retry due.
  await expect(async () => {
    await workbench.clock.advance.mutate({ byMs: 5_000 });
    await expect(created).toContainText(/[3-9] × 503/, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(label).toContainText("no attempt yet");
  await expect(label.getByText(/^waiting behind [0-9a-f]{8}$/)).toBeVisible();
  await page.getByTestId("timeline-details").locator("summary").click(); // collapsed by default
  const timeline = page.getByRole("region", { name: "Attempt timeline of this incident" });
  await expect(timeline.getByTestId("attempt-lane")).toHaveCount(2);
  await attachScreenshot(page, testInfo, "outage", { fullPage: true });

  await workbench.receivers.setFault.mutate({ key: "north-psap", mode: "ok" });
  await expect(async () => {
    await workbench.clock.advance.mutate({ byMs: 10_000 });
    await expect(label.getByText("delivered")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(created.getByText("delivered")).toBeVisible();
  const list = await workbench.deliveries.list.query({ incidentId: id });
  const [first, second] = list;
  expect(list.map((d) => d.path)).toEqual(["/v3/incidents", `/v3/incidents/${id}/label`]);
  expect(Date.parse(second!.attempts[0]!.at)).toBeGreaterThanOrEqual(Date.parse(first!.attempts.at(-1)!.at));
  await attachScreenshot(page, testInfo, "recovered", { fullPage: true });
  await expectAccessible(page);
});

test("a capability toggle turns the label change into the generic changed event", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  await page.goto("/reference-receivers");
  const toggle = page
    .getByTestId("receiver-north-psap")
    .getByRole("checkbox", { name: "north-psap: incident.labelChanged" });
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect
    .poll(async () =>
      (await workbench.integrations.list.query())
        .find((i) => i.key === "north-psap")
        ?.discovery?.flags.includes("labelChanged"),
    )
    .toBe(false);
  const token = await partnerToken(request);
  const id = await createIncident(request, token, "QA toggle");
  await setLabel(request, token, id, "QA toggle, relabelled");
  await page.goto(`/deliveries?incident=${id}`);
  const changed = page.getByTestId("delivery-row").filter({ hasText: `/v3/incidents/${id}/changed` });
  await expect(changed).toContainText("changed (label");
  await expect(changed.getByText("delivered")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("delivery-row").filter({ hasText: "/label" })).toHaveCount(0);
  await attachScreenshot(page, testInfo, "changed", { fullPage: true });
});

test("a 61-minute clock jump expires a failing head and shows it on the timeline", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  await workbench.receivers.setFault.mutate({ key: "north-psap", mode: "http-503" });
  const token = await partnerToken(request);
  const id = await createIncident(request, token, "QA expiry");
  await page.goto(`/deliveries?incident=${id}`);
  const row = page.getByTestId("delivery-row").first();
  await expect(row).toContainText("× 503", { timeout: 10_000 });
  await page.getByTestId("clock-badge").click();
  await page.getByRole("button", { name: "+61 min" }).click();
  await expect(page.getByTestId("clock-offset")).toContainText("1h");
  await page.goto(`/deliveries?incident=${id}`);
  await expect(page.getByTestId("delivery-row").first().getByText("expired")).toBeVisible({ timeout: 10_000 });
  await page.getByTestId("timeline-details").locator("summary").click(); // collapsed by default
  await expect(
    page.getByRole("region", { name: "Attempt timeline of this incident" }).locator('[data-state="expired"]'),
  ).toHaveCount(1);
  await page.getByTestId("delivery-row").first().click();
  await expect(page.getByTestId("delivery-detail")).toContainText("Expiry");
  await attachScreenshot(page, testInfo, "expired", { fullPage: true });
});
