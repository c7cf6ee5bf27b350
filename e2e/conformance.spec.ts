// The conformance kit end to end: from the Conformance page and from the CLI,
// against fixture receivers started here on loopback that verify tokens at the
// e2e workbench's JWKS.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import {
  LEGACY_ABOUT,
  startFixtureReceiver,
  type FixtureReceiver,
  type ReceiverFaults,
} from "../server/conformance/testing/fixture-receiver.ts";
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";

const NORTH_PSAP = "0b0c5b52-1c0e-4a57-9a57-000000000001";
const FIRE_AND_RESCUE = "0b0c5b52-1c0e-4a57-9a57-000000000003";
let receiver: FixtureReceiver | undefined;
test.afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const start = async (authUrl: string, faults?: ReceiverFaults) =>
  (receiver = await startFixtureReceiver({ authUrl, agencyId: NORTH_PSAP, faults }));

/** Runs the CLI without blocking this process (the fixture receiver answers from it). */
async function cli(args: string[], baseURL: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)("node", ["packages/cli/bin/workbench.mjs", ...args], {
      env: { ...process.env, WORKBENCH_URL: baseURL },
    });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

test("a correct receiver passes every check from the Conformance page, with history and an HTML report", async ({
  page,
  baseURL,
}, testInfo) => {
  const { url } = await start(baseURL!);
  await page.goto("/conformance");
  await page.getByLabel(/Receiver URL/).fill(url);
  await page.getByLabel(/insecure-dev/).check();
  await page.getByLabel(/Agency the receiver serves/).selectOption({ label: "North PSAP" });
  await page.getByRole("button", { name: "Run checks" }).click();
  await expect(page.getByTestId("run-verdict")).toHaveText("Passed", { timeout: 20_000 });
  for (const bar of await page.getByRole("progressbar").all()) {
    await expect(bar).toHaveAttribute("aria-valuenow", (await bar.getAttribute("aria-valuemax"))!);
  }
  await expect(page.getByTestId("check-token.hs256-public-key")).toContainText("Pass");
  await expect(page.getByRole("row", { name: new RegExp(url.replace(/[.]/g, "\\.")) }).first()).toContainText("passed");
  await attachScreenshot(page, testInfo, "conformance passed", { fullPage: true });
  await expectAccessible(page);

  const report = await page.request.get((await page.getByRole("link", { name: "HTML report" }).getAttribute("href"))!);
  expect(report.headers()["content-type"]).toContain("text/html");
  const html = await report.text();
  expect(html).toContain("Passed:");
  expect(html).toContain(url);
  expect(html).not.toMatch(/<script/i);
});

test("progress shows while a run is under way: pending checks and partly filled group bars", async ({
  page,
  baseURL,
}) => {
  const { url } = await start(baseURL!, { slowCreateMs: 400 });
  await page.goto("/conformance");
  await page.getByLabel(/Receiver URL/).fill(url);
  await page.getByLabel(/insecure-dev/).check();
  await page.getByRole("button", { name: "Run checks" }).click();
  await expect(page.getByTestId("run-verdict")).toHaveText("Running…");
  await expect(page.getByTestId("check-delivery.closed")).toContainText("Pending");
  const delivery = page.getByRole("progressbar", { name: "Delivery semantics" });
  await expect(delivery).not.toHaveAttribute("aria-valuenow", (await delivery.getAttribute("aria-valuemax"))!);
  await expect(page.getByTestId("run-verdict")).toHaveText("Passed", { timeout: 25_000 });
  await expect(delivery).toHaveAttribute("aria-valuenow", (await delivery.getAttribute("aria-valuemax"))!);
  await expect(page.getByText("Pending")).toHaveCount(0);
});

test("a receiver answering 201 fails from the page with the reason and the risk", async ({ page, baseURL }) => {
  const { url } = await start(baseURL!, { answers201: true });
  await page.goto("/conformance");
  await page.getByLabel(/Receiver URL/).fill(url);
  await page.getByLabel(/insecure-dev/).check();
  await page.getByRole("button", { name: "Run checks" }).click();
  await expect(page.getByTestId("run-verdict")).toHaveText("Failed", { timeout: 20_000 });
  await expect(page.getByTestId("check-delivery.exactly-200")).toContainText("POST /v3/incidents answered 201.");
  await expect(page.getByTestId("check-delivery.exactly-200")).toContainText("counts 201 as a failure");
});

test("`workbench conformance`: exit 0 and JUnit for a correct receiver, exit 1 naming the fault otherwise", async ({
  baseURL,
}, testInfo) => {
  const good = await start(baseURL!);
  const junit = testInfo.outputPath("conformance.xml");
  const ok = await cli(
    ["conformance", "--receiver", good.url, "--insecure-dev", "--agency", NORTH_PSAP, "--junit", junit],
    baseURL!,
  );
  expect(ok.code).toBe(0);
  expect(ok.stdout).toMatch(/^pass\s+token\.alg-none\s+answered 401$/m);
  expect(ok.stdout).toMatch(/PASSED: \d+ passed, 0 failed/);
  expect(await readFile(junit, "utf8")).toMatch(/<testsuite name="Token validation" tests="17" failures="0"/);
  await good.close();

  const bad = await start(baseURL!, { acceptsAnyToken: true });
  const failed = await cli(["conformance", "--receiver", bad.url, "--insecure-dev", "--json"], baseURL!);
  expect(failed.code).toBe(1);
  const run = JSON.parse(failed.stdout) as {
    status: string;
    reportUrl: string;
    results: Array<{ id: string; outcome: string; risk?: string }>;
  };
  expect(run.status).toBe("failed");
  expect(run.results.find((r) => r.id === "token.alg-none")).toMatchObject({
    outcome: "fail",
    risk: expect.stringMatching(/anyone can write one/),
  });
  expect(run.reportUrl).toMatch(/\/api\/conformance\/runs\/[0-9a-f-]{36}\/report$/);
});

test("a v2 receiver gets the v2 checks, shown the same way: pending v2 checks, group bars, verdict, HTML report, JUnit", async ({
  page,
  baseURL,
}, testInfo) => {
  const v2 = (receiver = await startFixtureReceiver({
    authUrl: baseURL!,
    agencyId: FIRE_AND_RESCUE,
    about: LEGACY_ABOUT,
    faults: { slowCreateMs: 300 },
  }));
  await page.goto("/conformance");
  await page.getByLabel(/Receiver URL/).fill(v2.url);
  await page.getByLabel(/insecure-dev/).check();
  await page.getByLabel(/Agency the receiver serves/).selectOption({ label: "Fire and Rescue" });
  await page.getByRole("button", { name: "Run checks" }).click();
  // Once /about is read the pending list is the v2 plan's.
  await expect(page.getByTestId("check-v2.delivery.closed")).toContainText("Pending");
  await expect(page.getByTestId("run-verdict")).toHaveText("Passed", { timeout: 25_000 });
  for (const bar of await page.getByRole("progressbar").all()) {
    await expect(bar).toHaveAttribute("aria-valuenow", (await bar.getAttribute("aria-valuemax"))!);
  }
  await expect(page.getByText("declares 2.0")).toBeVisible();
  await expect(page.getByTestId("check-v2.token.publisher")).toContainText("Pass");
  await expect(page.getByTestId("check-token.alg-none")).toHaveCount(0);
  await attachScreenshot(page, testInfo, "conformance v2 passed", { fullPage: true });
  const report = await page.request.get((await page.getByRole("link", { name: "HTML report" }).getAttribute("href"))!);
  expect(await report.text()).toContain("legacy v2 webhook contract (v2 checks)");

  const junit = testInfo.outputPath("conformance-v2.xml");
  const ok = await cli(
    ["conformance", "--receiver", v2.url, "--insecure-dev", "--agency", FIRE_AND_RESCUE, "--junit", junit],
    baseURL!,
  );
  expect(ok.code).toBe(0);
  expect(ok.stdout).toMatch(/^pass\s+v2\.token\.alg-none\s+answered 401$/m);
  expect(await readFile(junit, "utf8")).toMatch(/<testsuite name="Token validation" tests="19" failures="0"/);
});

test("the outbound policy's refusal shows on the page and in the CLI as one line", async ({ page, baseURL }) => {
  await page.goto("/conformance");
  await page.getByLabel(/Receiver URL/).fill("http://169.254.169.254/latest");
  await page.getByLabel(/insecure-dev/).check();
  await page.getByRole("button", { name: "Run checks" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: /./ });
  await expect(refusal).toHaveText(
    "refused: 169.254.169.254 is a cloud-metadata address; outbound requests never go there, OUTBOUND_ALLOW or not",
  );
  const { url } = await start(baseURL!);
  await page.getByLabel(/insecure-dev/).uncheck();
  await page.getByLabel(/Receiver URL/).fill(url);
  await page.getByRole("button", { name: "Run checks" }).click();
  await expect(refusal).toHaveText(
    /^refused: http:\/\/127\.0\.0\.1:\d+ is plain http; HTTPS with a valid certificate is required/,
  );
  const refused = await cli(["conformance", "--receiver", url], baseURL!);
  expect(refused.code).toBe(1);
});
