import { execFileSync } from "node:child_process";
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

test.afterEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
});

test("+61 min on the Clock page moves the time the whole dashboard shows", async ({ page }, testInfo) => {
  await page.goto("/clock");
  await expect(page.getByTestId("clock-offset-value")).toHaveText("0 (real time)");
  await page.getByRole("button", { name: "+61 min" }).click();
  await expect(page.getByTestId("clock-offset-value")).toHaveText("1h 1m");
  await expect(page.getByTestId("clock-offset")).toHaveText("+1h 1m");
  await attachScreenshot(page, testInfo, "clock advanced");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Reset to real time" }).click();
  await expect(page.getByTestId("clock-offset-value")).toHaveText("0 (real time)");
});

test("`workbench clock advance 61m --json` moves the clock the server and dashboard see", async ({
  page,
  baseURL,
  workbench,
}) => {
  const out = execFileSync("node", ["packages/cli/bin/workbench.mjs", "clock", "advance", "61m", "--json"], {
    env: { ...process.env, WORKBENCH_URL: baseURL },
    encoding: "utf8",
  });
  const state = JSON.parse(out) as { offsetMs: number; now: string };
  expect(state.offsetMs).toBe(3_660_000);
  expect((await workbench.clock.show.query()).offsetMs).toBe(3_660_000);
  const health = (await (await page.request.get("/api/health")).json()) as { now: string };
  expect(Date.parse(health.now) - Date.now()).toBeGreaterThan(3_600_000);
  await page.goto("/");
  await expect(page.getByTestId("clock-offset")).toHaveText("+1h 1m");
});
