// The delivery inspector as an integrator uses it, at 1280×800 and 1920×1080: every dashboard page
// fits the window (no horizontal scroll), the list and the selected delivery share the first
// viewport, and the states say why — a failing head retrying on a 503, the event waiting behind it,
// both expired after a clock jump past their hour. Seeded through /connect/token and /v1; faults
// and the clock through tRPC.
import type { Page } from "@playwright/test";
import { createIncident, partnerToken, setLabel } from "./fixtures/partner-api";
import { DASHBOARD_PAGES } from "./fixtures/dashboard-pages";
import { expect, test, attachScreenshot } from "./fixtures/workbench";

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

const overflow = (page: Page) =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

/** The element's box lies inside the first viewport (the page not scrolled). */
async function inFirstViewport(page: Page, testId: string) {
  const box = (await page.getByTestId(testId).first().boundingBox())!;
  const { innerHeight, innerWidth, scrollY } = await page.evaluate(() => ({
    innerHeight: window.innerHeight,
    innerWidth: window.innerWidth,
    scrollY: window.scrollY,
  }));
  return { scrollY, top: box.y >= 0 && box.y < innerHeight - 120, inside: box.x + box.width <= innerWidth };
}

test.afterEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
  await workbench.receivers.setFault.mutate({ key: "north-psap", mode: "ok" });
});

for (const viewport of VIEWPORTS) {
  for (const path of DASHBOARD_PAGES) {
    test(`${viewport.width}×${viewport.height}: ${path} does not scroll sideways`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const o = await overflow(page);
      expect(o.scrollWidth, `${path} is wider than the window`).toBeLessThanOrEqual(o.innerWidth);
    });
  }

  test(`${viewport.width}×${viewport.height}: the list and the selection share the first viewport, nothing scrolls sideways`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    // A selection with the longest path the contract has, and the timeline opened.
    const token = await partnerToken(request);
    const id = await createIncident(request, token, `Layout ${viewport.width} ${"a very long label ".repeat(8)}`);
    await page.goto(`/deliveries?incident=${id}`);
    const row = page.getByTestId("delivery-row").first();
    await expect(row).toBeVisible({ timeout: 15_000 });
    await row.click();
    await expect(page.getByTestId("delivery-detail")).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("detail-status")).toHaveText(/delivered|queued|sending/);
    expect(await inFirstViewport(page, "virtual-list")).toEqual({ scrollY: 0, top: true, inside: true });
    expect(await inFirstViewport(page, "delivery-detail")).toEqual({ scrollY: 0, top: true, inside: true });
    for (const tab of ["Request", "Response", "Snapshot diff", "Attempts"]) {
      await page.getByRole("tab", { name: new RegExp(`^${tab}`) }).click();
      const o = await overflow(page);
      expect(o.scrollWidth, `the ${tab} tab is wider than the window`).toBeLessThanOrEqual(o.innerWidth);
    }
    await page.getByTestId("timeline-details").locator("summary").click();
    await expect(page.getByTestId("attempt-timeline")).toBeVisible();
    const o = await overflow(page);
    expect(o.scrollWidth).toBeLessThanOrEqual(o.innerWidth);
    // The list is a few key presses away: the layout's skip link, then the inspector's own.
    await page.goto(`/deliveries?incident=${id}`);
    await expect(page.getByTestId("delivery-row").first()).toBeVisible({ timeout: 15_000 });
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Enter");
    const skip = page.getByRole("link", { name: "Skip to the deliveries list" });
    let presses = 0;
    while (presses < 4 && !(await skip.evaluate((el) => el === document.activeElement))) {
      await page.keyboard.press("Tab");
      presses++;
    }
    await expect(skip).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("listbox", { name: "Deliveries" })).toBeFocused();
    await attachScreenshot(page, testInfo, `selected ${viewport.width}`);
  });
}

test("the states say why: retrying on a 503, waiting behind the head, then both expired after +61 min", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await workbench.receivers.setFault.mutate({ key: "north-psap", mode: "http-503" });
  const token = await partnerToken(request);
  const id = await createIncident(request, token, "QA states");
  await setLabel(request, token, id, "QA states, relabelled");
  await page.goto(`/deliveries?incident=${id.slice(0, 8)}`); // the short form the dashboard shows
  const rows = page.getByTestId("delivery-row");
  const head = rows.filter({ hasText: "POST /v3/incidents" }).filter({ hasNotText: "/label" });
  const label = rows.filter({ hasText: "/label" });
  await expect(async () => {
    await workbench.clock.advance.mutate({ byMs: 3_000 });
    await expect(head.getByTestId("delivery-attempts")).toHaveText(/^[2-9] × 503$/, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(head.getByTestId("delivery-status")).toHaveText(/^retrying \(503(, next in \d+ s|, due now)?\)$/);
  const headId = (await workbench.deliveries.list.query({ incidentId: id })).find(
    (d) => d.path === "/v3/incidents",
  )!.requestId;
  await expect(label.getByTestId("delivery-status")).toHaveText(`waiting behind ${headId.slice(0, 8)}`);
  await expect(label.getByTestId("delivery-attempts")).toHaveText("no attempt yet");
  await label.click();
  await expect(page.getByTestId("waiting-behind")).toContainText(headId.slice(0, 8));
  await attachScreenshot(page, testInfo, "outage");

  await workbench.clock.advance.mutate({ byMs: 61 * 60_000 });
  await expect(head.getByTestId("delivery-status")).toHaveText(/^expired after \d+ attempts \(last 503\)$/, {
    timeout: 15_000,
  });
  await expect(label.getByTestId("delivery-status")).toHaveText("expired unsent after 1 h", { timeout: 15_000 });
  const detail = page.getByTestId("delivery-detail");
  await expect(detail.getByTestId("detail-status")).toHaveText("expired unsent after 1 h");
  await expect(detail).toContainText("Never sent: it expired one hour after it was produced");
  await expect(detail).not.toContainText("Not attempted yet");
  await expect(detail.getByText("Next attempt").locator("..")).toContainText("none");
  await attachScreenshot(page, testInfo, "expired");
});

test("an unknown selection says so, and a malformed incident filter is named, not ignored", async ({ page }) => {
  await page.goto("/deliveries?selected=00000000-0000-4000-8000-000000000000");
  await expect(page.getByTestId("detail-panel")).toContainText("Delivery not found", { timeout: 10_000 });
  await page.goto("/deliveries?selected=not-a-request-id");
  await expect(page.getByTestId("detail-panel")).toContainText("Delivery not found");
  await page.goto("/deliveries?incident=not-a-uuid");
  await expect(page.getByText("Not an incident id: paste a whole id or its first 8 characters.")).toBeVisible();
  await expect(page.getByLabel("Incident")).toHaveAttribute("aria-invalid", "true");
});
