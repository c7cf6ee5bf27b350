// `workbench login` in a real browser against the shared workbench of playwright.config.ts (decision
// 0053): the CLI (a child process) prints its link, the member signs in on the workbench's own form,
// reads the confirm page and authorises; the CLI stores a 0600 token that the next command uses, and
// `workbench logout` revokes it. A second login, cancelled, leaves nothing behind.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnCli } from "../server/testing/cli-login-client.ts";
import { E2E_SHARED_ADMIN_PASSWORD, E2E_SHARED_URL } from "../playwright.config";
import { expect as baseExpect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

const expect = baseExpect.configure({ timeout: 20_000 });
test.use({ baseURL: E2E_SHARED_URL });

let config: string;
test.beforeAll(() => {
  config = fs.mkdtempSync(path.join(os.tmpdir(), "wb-e2e-cli-login-"));
});
test.afterAll(() => fs.rmSync(config, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) => spawnCli(args, config, env);

test("login through the browser stores a 0600 token the CLI uses; logout revokes it", async ({ page }, testInfo) => {
  test.setTimeout(180_000); // five CLI processes and a sign-in (scrypt) on a shared 2-core machine
  const login = cli(["login", "--no-browser", "--url", E2E_SHARED_URL]);
  await page.goto((await login.link()).href);
  await expect(page.getByRole("heading", { name: "Sign in to the workbench" })).toBeVisible();
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(E2E_SHARED_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { name: "Authorize the Workbench CLI?" })).toBeVisible();
  await expect(page.locator("main p").first()).toHaveText(
    /^\s*Workbench CLI on \S+ wants an API token as admin,\s+role\s+admin\.\s*$/,
  );
  await expectAccessible(page);
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(viewport);
    const name = `cli-confirm-${viewport.width}x${viewport.height}`;
    await attachScreenshot(page, testInfo, name, { fullPage: true, file: `${name}.png` });
  }
  await page.getByRole("button", { name: "Authorize" }).click();
  await expect(page.getByRole("heading", { name: "Logged in" })).toBeVisible();
  expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  expect(page.url()).not.toContain("wbt_"); // the token never sits in the browser's URL
  await attachScreenshot(page, testInfo, "cli-logged-in", { file: "cli-logged-in.png" });
  const result = await login.done;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`Logged in to ${E2E_SHARED_URL} as admin (role admin).`);

  const file = path.join(config, "xdg", "workbench", "credentials.json");
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  const token = (JSON.parse(fs.readFileSync(file, "utf8")) as { workbenches: Record<string, { token: string }> })
    .workbenches[E2E_SHARED_URL]!.token;
  expect((await cli(["clock", "show"]).done).code).toBe(0);
  expect((await cli(["logout"]).done).stdout).toBe(
    `Logged out of ${E2E_SHARED_URL}: the token is revoked and forgotten.\n`,
  );
  const after = await cli(["clock", "show"], { WORKBENCH_URL: E2E_SHARED_URL, WORKBENCH_TOKEN: token }).done;
  expect(after.code).toBe(1);

  // Signed in already: straight to the confirm page; Cancel ends the CLI with one line.
  const cancelled = cli(["login", "--no-browser", "--url", E2E_SHARED_URL]);
  await page.goto((await cancelled.link()).href);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Login cancelled" })).toBeVisible();
  await attachScreenshot(page, testInfo, "cli-cancelled", { file: "cli-cancelled.png" });
  expect((await cancelled.done).stderr).toMatch(/workbench: the login was cancelled in the browser\.\n$/);
});
