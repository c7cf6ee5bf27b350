import { execFileSync } from "node:child_process";
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

const cli = (baseURL: string, ...args: string[]) =>
  JSON.parse(
    execFileSync("node", ["packages/cli/bin/workbench.mjs", ...args, "--json"], {
      env: { ...process.env, WORKBENCH_URL: baseURL },
      encoding: "utf8",
    }),
  ) as unknown;

test.afterEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
  for (const key of ["north-psap", "central-ems", "fire-rescue"])
    await workbench.receivers.setFault.mutate({ key, mode: "ok" });
  await workbench.receivers.setCapabilities.mutate({ key: "north-psap", set: { "incident.labelChanged": true } });
});

test("a capability toggle changes the /about preview and what the CLI reports", async ({ page, baseURL }, testInfo) => {
  await page.goto("/reference-receivers");
  const north = page.getByTestId("receiver-north-psap");
  await expect(north.getByRole("heading", { name: "north-psap" })).toBeVisible();
  await expect(page.getByTestId("receiver-central-ems")).toBeVisible();
  const toggle = north.getByRole("checkbox", { name: "north-psap: incident.labelChanged" });
  await expect(toggle).toBeChecked();
  // Controlled by the server state: it unchecks once the change is stored.
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(page.getByTestId("about-north-psap")).toContainText('"labelChanged": false');
  const shown = cli(baseURL!, "receiver", "capabilities", "north-psap") as {
    declaration: { supports: { incident: { labelChanged: boolean } } };
  };
  expect(shown.declaration.supports.incident.labelChanged).toBe(false);
  await attachScreenshot(page, testInfo, "receivers", { fullPage: true });
  await expectAccessible(page);
});

test("a fault set from the CLI shows its countdown on the workbench clock, and heals", async ({
  page,
  baseURL,
  workbench,
}) => {
  const state = cli(baseURL!, "receiver", "fault", "central-ems", "--mode", "http-503", "--for", "10m") as {
    state: string;
    remainingMs: number;
  };
  expect(state).toMatchObject({ state: "active", remainingMs: 600_000 });
  await page.goto("/reference-receivers");
  const fault = page.getByTestId("fault-central-ems");
  await expect(fault).toContainText(/http-503 active, (10m|9m \d+s) left/);
  const res = await page.request.get("/receivers/central-ems/health");
  expect(res.status()).toBe(503);
  await workbench.clock.advance.mutate({ byMs: 6 * 60_000 });
  await expect(fault).toContainText(/http-503 active, (4m|3m \d+s) left/);
  await page.getByTestId("receiver-central-ems").getByRole("button", { name: "Heal" }).click();
  await expect(fault).toHaveText("No fault: behaving.");
  expect((await page.request.get("/receivers/central-ems/health")).status()).toBe(200);
  expect(cli(baseURL!, "receiver", "events", "central-ems")).toEqual(
    expect.arrayContaining([expect.objectContaining({ outcome: "fault", status: 503, path: "/health" })]),
  );
});
