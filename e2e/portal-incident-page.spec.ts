// The dispatcher's incident page and list at a glance, at 1280×800 and 1920×1080: the header
// strip (what, where, who, how fresh) with the map and the chat beside it in the first viewport,
// ages on the workbench clock (a +61 min jump ages the latest fix by an hour), the list's place,
// last update and unread chat, and the not-found, empty and overflow cases.
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";
import { AGENCY_ID, signInToPortal } from "./fixtures/portal-sign-in";
import type { WorkbenchClient } from "../server/cli/client.ts";

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

async function runCardiacArrest(workbench: WorkbenchClient): Promise<string> {
  const run = await workbench.simulator.runScenario.mutate({ scenario: "cardiac-arrest" });
  await expect
    .poll(async () => (await workbench.simulator.scenarioRun.query({ runId: run.id }))?.state, { timeout: 15_000 })
    .toBe("done");
  return (await workbench.simulator.scenarioRun.query({ runId: run.id }))!.incidentIds[0]!;
}

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow at ${page.viewportSize()?.width} px`).toBeLessThanOrEqual(0);
}

// Each test runs a scenario, several pages and axe: measured at 17–28 s on a loaded two-core machine.
test.describe.configure({ timeout: 60_000 });

test.afterEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
});

for (const size of SIZES) {
  test(`cardiac arrest at ${size.width}×${size.height}: what, where, who and freshness above the fold, map and chat beside`, async ({
    page,
    request,
    workbench,
  }, testInfo) => {
    await page.setViewportSize(size);
    const incidentId = await runCardiacArrest(workbench);
    await signInToPortal(page, request, { returnUrl: `/portal/incidents/${incidentId}` });

    // What: the problems the caller reported (the chat says "not breathing"), and the medical flags.
    await expect(page.getByRole("heading", { level: 1, name: "Unconscious, not breathing" })).toBeVisible();
    const what = page.getByTestId("fact-what");
    await expect(what.getByTestId("reported-problem")).toHaveText(["Unconscious", "Not breathing"]);
    await expect(what.getByTestId("medical-flags")).toContainText("Heart condition");
    await expect(what.getByTestId("medical-flags")).toContainText("Allergy: Penicillin");
    await expect(page.getByText(/not reported/i)).toHaveCount(0);
    // Where: the app's precise fix in words, with accuracy, source and age; who; how fresh.
    const where = page.getByTestId("fact-where");
    await expect(where).toContainText("59.96240° N, 10.76770° E");
    await expect(where).toContainText("±6 m · Mobile app");
    await expect(where.getByTestId("latest-position-age")).toHaveText(/(just now|\d+ s ago)/);
    await expect(page.getByTestId("fact-who")).toContainText("Ola Nordmann");
    await expect(page.getByTestId("fact-who")).toContainText("+4795001122");
    await expect(page.getByTestId("fact-fresh")).toContainText(/updates · opened/);
    await expect(page.getByTestId("portal-clock")).toBeVisible();
    // The id is small, with a copy button, never the headline.
    await expect(page.getByRole("button", { name: "Copy incident id" })).toBeVisible();

    // The map and the chat beside the facts, all inside the first viewport.
    const header = (await page.getByTestId("incident-header").boundingBox())!;
    const map = (await page.getByTestId("caller-track-map").boundingBox())!;
    const chat = (await page.getByTestId("caller-contact").boundingBox())!;
    expect(map.x).toBeGreaterThan(header.x + header.width - 1);
    expect(chat.x).toBeGreaterThan(map.x + map.width - 1);
    for (const box of [header, map, chat]) expect(box.y).toBeLessThan(size.height / 2);
    await expect(page.getByTestId("chat-messages")).toContainText("not breathing");
    await expect(page.getByTestId("offline-grid-caption")).toHaveText("Offline grid, no map tiles configured");
    // Data sources from the data: every fix came from the mobile app or AML, so neither reads "not used".
    const sources = page.getByTestId("data-sources");
    await expect(sources.getByRole("listitem").filter({ hasText: "Mobile app" })).toContainText("1 position");
    await expect(sources.getByRole("listitem").filter({ hasText: "AML" })).toContainText("1 position");
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await attachScreenshot(page, testInfo, `cardiac-arrest-${size.width}`);

    // The focused views stay where their links point.
    for (const view of ["chat", "live-video"]) {
      await page.goto(`/portal/incidents/${incidentId}/${view}`);
      await expect(page.getByTestId("channel-state")).toBeVisible();
      await expectNoHorizontalOverflow(page);
    }
  });
}

test("after a +61 min clock jump the latest fix reads an hour old, on the page and in the list", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const raised = await workbench.simulator.raise.mutate({
    origin: "MobileApp",
    agencyId: AGENCY_ID.northPsap,
    location: { latitude: 59.962, longitude: 10.768, accuracy: 8 },
  });
  await signInToPortal(page, request, { returnUrl: `/portal/incidents/${raised.incidentId}` });
  const age = page.getByTestId("latest-position-age");
  await expect(age).toHaveText(/(just now|\d+ s ago)/);
  await workbench.clock.advance.mutate({ byMs: 61 * 60_000 });
  await expect(age).toHaveText("1 h 1 min ago", { timeout: 8_000 });
  await expect(page.getByTestId("portal-clock-offset")).toHaveText("+1 h 1 min ahead");
  await expect(age.locator("time")).toHaveAttribute("title", /UTC$/);
  await attachScreenshot(page, testInfo, "clock-jump");

  await page.goto("/portal/incidents");
  const row = page.locator(`[data-testid=incident-row][data-incident-id="${raised.incidentId}"]`);
  await expect(row.getByTestId("incident-place")).toContainText("±8 m · Mobile app · 1 h 1 min ago");
  await expect(row.getByTestId("incident-last-update")).toContainText(/updates?, last 1 h 1 min ago/);
});

test("the list shows place, last update and an unread caller message, most recent activity first", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  const raised = await workbench.simulator.raise.mutate({
    origin: "Aml",
    agencyId: AGENCY_ID.northPsap,
    phoneNumber: "+4795004400",
    location: { latitude: 59.9611, longitude: 10.7702, accuracy: 45 },
  });
  await workbench.simulator.act.mutate({ incidentId: raised.incidentId, action: { action: "activateChat" } });
  await workbench.simulator.act.mutate({
    incidentId: raised.incidentId,
    action: { action: "chatMessage", text: "The door is open" },
  });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await signInToPortal(page, request);
    const rows = page.getByTestId("incident-row");
    await expect(rows.first()).toHaveAttribute("data-incident-id", raised.incidentId);
    const row = rows.first();
    await expect(row.getByRole("link")).toHaveText("Call from +4795004400");
    await expect(row.getByTestId("incident-place")).toContainText("59.96110° N, 10.77020° E");
    await expect(row.getByTestId("incident-last-update")).toContainText(/\d+ updates, last (just now|\d+ s ago)/);
    await expect(row.getByTestId("unread-chat")).toHaveText("New message");
    await expect(page.getByText(/v\d+ ·/)).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await attachScreenshot(page, testInfo, `list-${size.width}`);
  }

  // Keyboard: the arrow keys walk the incidents; Enter opens one, whose chat counts as seen.
  const links = page.getByTestId("incident-row").getByRole("link");
  await links.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(links.nth(1)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(links.first()).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/portal/incidents/${raised.incidentId}$`));
  await expect(page.getByTestId("chat-messages")).toContainText("The door is open");
  await page.goto("/portal/incidents");
  const row = page.locator(`[data-testid=incident-row][data-incident-id="${raised.incidentId}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("unread-chat")).toHaveCount(0);

  // A new message from the caller is unread again.
  await workbench.simulator.act.mutate({
    incidentId: raised.incidentId,
    action: { action: "chatMessage", text: "Second floor" },
  });
  await expect(row.getByTestId("unread-chat")).toBeVisible({ timeout: 3_000 });
});

test("an unknown or malformed incident id says not found; an empty filter says so", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInToPortal(page, request, { returnUrl: "/portal/incidents/00000000-0000-4000-8000-000000000000" });
  await expect(page.getByTestId("incident-not-found")).toContainText("Incident not found");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "not-found");
  await page.goto("/portal/incidents/not-an-id");
  await expect(page.getByTestId("incident-not-found")).toBeVisible();
  await page.goto("/portal/incidents/not-an-id/chat");
  await expect(page.getByTestId("incident-not-found")).toBeVisible();

  await page.goto("/portal/incidents");
  await page.getByTestId("filter-state").selectOption("closed");
  await page.getByTestId("filter-purpose").selectOption("Demo");
  await expect(page.getByText("No incident matches these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Show all open incidents" }).click();
  await expect(page.getByTestId("incident-row").first()).toBeVisible();
});
