// Every main dashboard page loads cleanly in the browser: no uncaught page
// error (a hydration mismatch, React error #418, surfaces as one), no console
// error, and no request of the page answered with an error status (a missing
// static asset, say). The favicon and the icon link answer.
import type { Page } from "@playwright/test";
import { DEMO_INCIDENT } from "../server/incidents/seed-demo-incidents.ts";
import { expect, test } from "./fixtures/workbench";

const PAGES = [
  "/",
  "/incidents",
  `/incidents/${DEMO_INCIDENT.northFall}`,
  "/deliveries",
  "/reference-receivers",
  "/simulator",
  "/partner-console",
  "/admin",
  "/admin/tokens",
  "/clock",
  "/conformance",
  "/docs",
  "/api-docs",
  "/ui-kit",
];

/** What went wrong while `path` loaded and hydrated. */
async function problemsLoading(page: Page, path: string): Promise<string[]> {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForLoadState("load");
  // Hydration runs after load; give React a moment to report a mismatch and the page its first queries.
  await page.waitForTimeout(1_500);
  return problems;
}

for (const path of PAGES) {
  test(`${path} loads with no page error, console error or failed request`, async ({ page }) => {
    expect(await problemsLoading(page, path)).toEqual([]);
  });
}

test("/favicon.ico and the pages' icon link answer with an image", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]); // the ICO header: reserved 0, type 1 (icon)

  await page.goto("/");
  const href = await page.locator('head link[rel="icon"]').first().getAttribute("href");
  const icon = await request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\//);
});
