// The API calls page as an integrator uses it (docs/api-calls.md), at 1280×800 and 1920×1080: a
// partner client that fetches a token per call shows up with its verdict and advice; the list and
// the selected call share the first viewport, nothing overflows, axe finds nothing serious; a fault
// set from the page answers the client's next token request with 503 and is marked in the list.
import type { Page } from "@playwright/test";
import { createIncident, partnerToken } from "./fixtures/partner-api";
import { attachScreenshot, expect, expectAccessible, test } from "./fixtures/workbench";

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

async function inFirstViewport(page: Page, testId: string) {
  const box = (await page.getByTestId(testId).first().boundingBox())!;
  const { innerHeight, innerWidth } = await page.evaluate(() => ({
    innerHeight: window.innerHeight,
    innerWidth: window.innerWidth,
  }));
  return { top: box.y >= 0 && box.y < innerHeight - 120, inside: box.x + box.width <= innerWidth + 1 };
}

test.afterEach(async ({ workbench }) => {
  await workbench.calls.faults.clear.mutate({});
});

for (const viewport of VIEWPORTS) {
  test(`a token per call shows as advice; list and call side by side at ${viewport.width}×${viewport.height}`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(60_000);
    // Three creates, each with a fresh token: the mistake authentication rule 2 names.
    for (let i = 0; i < 3; i++) await createIncident(request, await partnerToken(request), `API calls e2e ${i}`);
    await page.setViewportSize(viewport);
    await page.goto("/api-calls?client=partner-cad&advice=1");
    await expect(page.getByRole("heading", { level: 1, name: "API calls" })).toBeVisible();
    const verdict = page.getByTestId("client-verdicts").getByRole("button", { name: /partner-cad/ });
    await expect(verdict).toContainText(/\d+ errors/);
    const row = page.getByTestId("call-row").filter({ hasText: "token client_credentials" }).first();
    await expect(row.getByTestId("call-advice")).toBeVisible();
    await row.click();
    const detail = page.getByTestId("call-detail");
    await expect(detail.getByTestId("advice").first()).toContainText(
      "A new token while the last one had most of its life left",
    );
    await expect(detail.getByTestId("advice").first()).toContainText("Authentication, Access tokens, rule 2");
    await expect(detail.getByTestId("advice").first()).toContainText("Fix: Cache the access token");
    await detail.getByRole("tab", { name: "Request" }).click();
    await expect(detail.getByRole("button", { name: "Copy as cURL" })).toBeVisible();
    await expect(detail).not.toContainText("partner-cad-secret");
    await detail.getByRole("tab", { name: "Token" }).click();
    await expect(detail).toContainText("never kept");
    expect(await inFirstViewport(page, "call-row")).toEqual({ top: true, inside: true });
    expect(await inFirstViewport(page, "call-panel")).toEqual({ top: true, inside: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await expectAccessible(page);
    await attachScreenshot(page, testInfo, `api-calls-${viewport.width}`);
  });
}

test("a fault set on the page answers the client's next token request, marked in the list", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.goto("/api-calls?client=partner-cad");
  const form = page.getByRole("form", { name: "Set a fault" });
  await form.getByLabel("Client").fill("partner-cad");
  await form.getByLabel("Surface").selectOption("token");
  await form.getByLabel("Answer").selectOption("http-503");
  await form.getByLabel("Retry-After (s)").fill("2");
  await form.getByLabel("Calls").fill("1");
  await form.getByRole("button", { name: "Set fault" }).click();
  await expect(page.getByTestId("client-faults")).toContainText(
    "http-503 (Retry-After 2 s) for partner-cad on token, 1 call left",
  );
  const refused = await request.post("/connect/token", {
    form: { grant_type: "client_credentials", client_id: "partner-cad", client_secret: "partner-cad-secret" },
  });
  expect(refused.status()).toBe(503);
  expect(refused.headers()["retry-after"]).toBe("2");
  const faulted = page.getByTestId("call-row").filter({ hasText: "fault" }).first();
  await expect(faulted).toContainText("503");
  await faulted.click();
  await expect(page.getByTestId("call-detail")).toContainText("An injected fault answered: http-503");
  await expect(page.getByTestId("client-faults")).toHaveCount(0);
});
