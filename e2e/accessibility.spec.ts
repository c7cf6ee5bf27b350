// axe on every main page of the dashboard and portal, at laptop width and at 1280 px: no serious
// or critical violation, and no horizontal page scroll. One screenshot per page.
import { DASHBOARD_PAGES } from "./fixtures/dashboard-pages";
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

// The UI kit is a catalogue of samples, not a page anyone works in: its fit is held by
// deliveries-layout.spec.ts, its samples by ui-kit.spec.ts.
for (const path of DASHBOARD_PAGES.filter((p) => p !== "/ui-kit")) {
  test(`${path} is accessible and fits 1280 px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await attachScreenshot(page, testInfo, path, { fullPage: true });
  });
}
