import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

test.afterEach(async ({ workbench }) => {
  await workbench.integrations.set.mutate({ key: "central-ems", url: "/receivers/central-ems" });
});

test("admin: an integration's receiver URL is validated, saved with a rediscovery, and rediscovered on demand", async ({
  page,
}, testInfo) => {
  await page.goto("/admin");
  const row = page.getByTestId("integration-central-ems");
  await expect(row).toContainText("active · v3");
  await row.getByLabel("Receiver URL").fill("ftp://cad.example");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByRole("alert")).toContainText("http(s) URL");
  // The outbound policy: one line in the form, nothing saved.
  await row.getByLabel("Receiver URL").fill("http://10.0.0.5/hooks");
  await row.getByLabel("insecure-dev").check();
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByRole("alert")).toContainText(
    "refused: 10.0.0.5 is a private address; only hosts or ranges listed in OUTBOUND_ALLOW may be reached",
  );
  await row.getByLabel("insecure-dev").uncheck();
  await row.getByLabel("Receiver URL").fill("/receivers/central-ems/");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByRole("alert")).toHaveCount(0);
  await row.getByRole("button", { name: "Rediscover" }).click();
  await expect(row).toContainText("declares: incident.created");
  await expect(page.getByRole("region", { name: /Agencies/ })).toContainText("South PSAP");
  await expect(page.getByRole("region", { name: /Users/ })).toContainText("dispatcher.north");
  await attachScreenshot(page, testInfo, "admin", { fullPage: true });
  await expectAccessible(page);
});
