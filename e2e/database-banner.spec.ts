// The dashboard's banner while the database is out of reach (docs/database-outages.md). The outage
// is played at the browser's edge (GET /api/health answers what the server answers while its
// database is down); the server-side half, a database really killed, is tested on real processes
// in server/whole-chain/database-outage.int.test.ts.
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

const DOWN = {
  status: "unavailable",
  ready: false,
  database: "embedded",
  databaseState: "restarting",
  reason: "database restarting",
  downForS: 4,
};

test("a banner on every page while the database is down, gone once it is back", async ({ page }, testInfo) => {
  let down = true;
  await page.route("**/api/health", async (route) => {
    if (down)
      await route.fulfill({
        status: 503,
        contentType: "application/json",
        headers: { "retry-after": "5" },
        body: JSON.stringify(DOWN),
      });
    else await route.continue();
  });
  for (const path of ["/", "/deliveries"]) {
    await page.goto(path);
    const banner = page.getByRole("alert").filter({ hasText: "The database is restarting (for 4 s)" });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText("nothing the workbench acknowledged is lost");
  }
  await attachScreenshot(page, testInfo, "banner");
  await expectAccessible(page);

  down = false; // the next look (every 2 s while down) finds the database back
  await expect(page.getByTestId("database-banner")).toHaveCount(0, { timeout: 5_000 });
});

test("no banner while the database answers", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const health = await page.request.get("/api/health");
  expect(await health.json()).toMatchObject({ ready: true, databaseState: "up" });
  await expect(page.getByTestId("database-banner")).toHaveCount(0);
});
