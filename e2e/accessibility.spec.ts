// axe on every main page of the dashboard and portal, at laptop width and at 1280 px: no serious
// or critical violation, and no horizontal page scroll. One screenshot per page.
import { expect, expectAccessible, test } from "./fixtures/workbench";

const PAGES = [
  "/",
  "/incidents",
  "/deliveries",
  "/reference-receivers",
  "/simulator",
  "/partner-console",
  "/conformance",
  "/api-docs",
  "/docs",
  "/admin",
  "/admin/tokens",
  "/clock",
];

for (const path of PAGES) {
  test(`${path} is accessible and fits 1280 px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await testInfo.attach(path, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  });
}
