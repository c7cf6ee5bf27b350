import { expect, expectAccessible, test } from "./fixtures/workbench";

test("the overview lists the seeded agencies, clients, users and integrations", async ({ page }, testInfo) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Workbench areas" });
  for (const area of ["Incidents", "Deliveries", "Receivers", "Simulator", "Partner console", "Admin", "Clock"]) {
    await expect(nav.getByRole("link", { name: area })).toBeVisible();
  }
  const agencies = page.getByRole("region", { name: /Agencies/ });
  await expect(agencies.getByRole("row")).toHaveCount(5);
  await expect(agencies).toContainText("0b0c5b52-1c0e-4a57-9a57-000000000001");
  await expect(page.getByRole("region", { name: /Clients/ })).toContainText("partner-cad");
  await expect(page.getByRole("region", { name: /Users/ })).toContainText("locked.user");
  await expect(page.getByRole("region", { name: /Integrations/ })).toContainText("/receivers/north-psap");
  await testInfo.attach("overview", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await expectAccessible(page);
});

test("every area of the navigation opens", async ({ page }) => {
  await page.goto("/");
  for (const area of ["Incidents", "Deliveries", "Receivers", "Simulator", "Partner console", "Admin", "Clock"]) {
    await page.getByRole("navigation", { name: "Workbench areas" }).getByRole("link", { name: area }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: area })).toHaveAttribute("aria-current", "page");
  }
});
