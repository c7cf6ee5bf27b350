import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

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
  await attachScreenshot(page, testInfo, "overview", { fullPage: true });
  await expectAccessible(page);
});

test("every area of the navigation opens", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Workbench areas" });
  for (const area of ["Incidents", "Deliveries", "Receivers", "Simulator", "Partner console", "Admin", "Clock"]) {
    await nav.getByRole("link", { name: area }).click();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The area's own link in the navigation (a page may have other links naming it, e.g. a skip link).
    await expect(nav.getByRole("link", { name: area })).toHaveAttribute("aria-current", "page");
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server-rendered overview shows a client created a moment ago", async ({ page, workbench }) => {
    // Pages render on the dashboard's thread, which reads the database with services of its own
    // (docs/decisions/0038); the client is created through /api/trpc, on the main thread. Without
    // JavaScript, only the HTML that thread rendered is on the page.
    const clientId = `thread-check-${Date.now()}`;
    await workbench.identity.clients.create.mutate({
      clientId,
      displayName: "Thread check",
      scopes: ["incident.create"],
    });
    await page.goto("/");
    await expect(page.getByRole("region", { name: /Clients/ })).toContainText(clientId);
  });
});
