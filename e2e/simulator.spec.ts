// The Simulator page: a caller action recorded as a change, and a scripted
// scenario run (progress per step) whose incident shows up in the portal.
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";
import { signInToPortal } from "./fixtures/portal-sign-in";

test("a caller action from the Simulator page becomes a change record on the Incidents page", async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000); // two pages, each checked for accessibility and shot whole, on a shared 2-core machine
  await page.goto("/simulator");
  await expect(page.getByRole("heading", { level: 1, name: "Simulator" })).toBeVisible();
  await page.getByTestId("raise-origin").selectOption("Aml");
  await page.getByRole("button", { name: "Raise incident" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Real incident raised" })).toBeVisible();
  await expect(page).toHaveURL(/\/simulator\?incident=/);
  await page.getByRole("button", { name: "Add location" }).click();
  await expect(page.getByTestId("action-result")).toContainText("caller.newLocation");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "simulator", { fullPage: true });

  await page.getByRole("link", { name: "Incident page" }).first().click();
  await expect(page.getByRole("list", { name: "Changes, newest first" })).toContainText("New Mobile app location ±8 m");
  await expect(page.getByRole("list", { name: "Changes, newest first" })).toContainText("Incident created");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "incident-detail", { fullPage: true });
  await page.goto("/incidents");
  await expect(page.getByTestId("incident-table")).toBeVisible();
  await expectAccessible(page);
});

test("a scenario run shows progress per step and its incident appears in the portal", async ({
  page,
  request,
}, testInfo) => {
  await page.goto("/simulator");
  const card = page.getByTestId("scenario-cardiac-arrest");
  await card.getByRole("button", { name: /^Run/ }).click();
  const run = card.getByTestId("scenario-run");
  await expect(run).toHaveAttribute("data-state", "done", { timeout: 15_000 });
  await expect(run.getByRole("progressbar")).toHaveCount(9);
  await expect(run.locator("[data-step-state=done]")).toHaveCount(9);
  await attachScreenshot(page, testInfo, "scenario-run", { fullPage: true });
  const portalHref = await run.getByRole("link", { name: "Portal" }).getAttribute("href");

  await signInToPortal(page, request);
  const incidentId = portalHref!.split("/").pop()!;
  const row = page.locator(`[data-testid=incident-row][data-incident-id="${incidentId}"]`);
  await expect(row).toContainText("Ola Nordmann");
  await row.getByRole("link").first().click();
  await expect(page.getByTestId("incident-snapshot")).toContainText("Ola Nordmann");
  await expect(page.getByRole("list", { name: "Changes, newest first" })).toContainText("New Mobile app location ±6 m");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "portal-scenario-incident", { fullPage: true });
});
