// The Admin page's "Kept data and disk" panel (docs/retention.md): the setting, the storage table
// with every group and the whole database, and Prune now recording a run.
import { expect, expectAccessible, test } from "./fixtures/workbench";

test("the Admin page shows what is kept and its disk, and Prune now records a run", async ({ page }) => {
  await page.goto("/admin");
  const panel = page.getByTestId("retention");
  await expect(panel.getByRole("heading", { name: "Kept data and disk" })).toBeVisible();
  await expect(page.getByTestId("retention-policy")).toContainText("pruned 14 days of workbench time");
  const table = page.getByTestId("retention-storage");
  for (const what of ["Deliveries (bodies and attempts)", "Incidents and their change history", "The whole database"])
    await expect(table.getByRole("row", { name: new RegExp(what.replace(/[()]/g, "\\$&")) })).toBeVisible();
  await expect(table.getByRole("row", { name: /The whole database/ })).toContainText(/\d+\.\d (KiB|MiB|GiB)/);

  // The scheduled run (a clock move starts one) may hold the lock: the page says so, and Prune now
  // again once it ends is what a user does.
  await expect(async () => {
    await panel.getByRole("button", { name: "Prune now" }).click();
    await expect(panel.getByRole("status")).toContainText(/^Pruned /, { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("retention-last-run")).toContainText("Last run");
  await expectAccessible(page);
});
