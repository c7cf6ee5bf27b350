// QA: an incident created from the partner console, followed to the delivery inspector and to
// the reference receiver that got it.
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

test("create an incident in the partner console, follow it to the inspector and the receiver", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // four pages, two checked for accessibility, on a shared 2-core machine
  await page.goto("/partner-console");
  await expect(page.getByLabel("Client", { exact: true })).toHaveValue("partner-cad");
  await expect(page.getByLabel("User (username)")).toHaveValue("dispatcher.north");
  await page.getByRole("button", { name: "Get token" }).click();
  const claims = page.getByTestId("token-claims");
  await expect(claims).toContainText("partner-cad");
  await expect(claims).toContainText("dispatcher.north");
  await attachScreenshot(page, testInfo, "token", { fullPage: true });

  await expect(page.getByLabel("Operation", { exact: true })).toHaveValue("createIncident");
  await page.getByLabel("label", { exact: true }).fill("QA: console to inspector");
  await expect(page.getByText("curl -X POST").last()).toBeVisible();
  await page.getByRole("button", { name: /^Send POST \/incidents/ }).click();
  const response = page.getByTestId("operation-response");
  await expect(response.getByText("201", { exact: true })).toBeVisible();
  await attachScreenshot(page, testInfo, "created", { fullPage: true });
  await expectAccessible(page);

  await response.getByRole("link", { name: "Deliveries of this incident" }).click();
  await expect(page).toHaveURL(/\/deliveries\?incident=/);
  const incidentId = new URL(page.url()).searchParams.get("incident")!;
  const rows = page.getByTestId("delivery-row");
  await expect(rows.filter({ hasText: "delivered" }).first()).toBeVisible({ timeout: 10_000 });
  await page.getByTestId("timeline-details").locator("summary").click(); // collapsed by default
  await expect(
    page.getByRole("region", { name: "Attempt timeline of this incident" }).getByTestId("attempt-lane").first(),
  ).toBeVisible();
  await rows.filter({ hasText: "POST /v3/incidents" }).first().click();
  const detail = page.getByTestId("delivery-detail");
  await expect(detail).toContainText(incidentId);
  await expect(detail).toContainText("Bearer [redacted]");
  await detail.getByRole("tab", { name: "Response" }).click();
  await expect(detail.getByTestId("response-status")).toContainText("200");
  await detail.getByRole("tab", { name: "Snapshot diff" }).click();
  await expect(detail).toContainText("QA: console to inspector");
  await attachScreenshot(page, testInfo, "inspector", { fullPage: true });
  await expectAccessible(page);

  await page.goto("/reference-receivers");
  await expect(page.getByRole("table", { name: "north-psap: recorded events" })).toContainText(incidentId.slice(0, 8));
});
