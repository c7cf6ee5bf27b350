import { expect, expectAccessible, test } from "./fixtures/workbench";
import { signInToPortal } from "./fixtures/portal-sign-in";

test("the Inbound API page renders the OpenAPI document with every operation and its problem codes", async ({
  page,
}) => {
  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("inbound API v1");
  for (const id of [
    "getAgencyInfo",
    "reportCall",
    "createIncident",
    "setLabel",
    "addCallerLocation",
    "locateCaller",
    "activateLiveVideo",
    "closeIncident",
    "inviteAgency",
    "acceptCollaboration",
  ]) {
    await expect(page.locator(`article#${id}`)).toBeVisible();
  }
  await expect(page.locator("article#createIncident")).toContainText("IncidentAlreadyExists");
  await expect(page.getByText("application/problem+json").first()).toBeVisible();
  await expectAccessible(page);
});

test("the portal chat and live-video pages of a seeded Demo incident show the channel state", async ({
  page,
  request,
}) => {
  // Portal pages are behind the portal session.
  await signInToPortal(page, request, { returnUrl: "/portal/incidents/0b0c5b52-1c0e-4a57-9a57-200000000001/chat" });
  await expect(page.getByRole("heading", { name: "Caller chat" })).toBeVisible();
  await expect(page.getByTestId("channel-state")).toHaveText("Active");
  await page.goto("/portal/incidents/0b0c5b52-1c0e-4a57-9a57-200000000001/live-video");
  await expect(page.getByTestId("channel-state")).toHaveText("Not activated");
  await expectAccessible(page);
});

test("/v1/openapi.json is served without a token", async ({ request }) => {
  const res = await request.get("/v1/openapi.json");
  expect(res.status()).toBe(200);
  expect((await res.json()).openapi).toBe("3.1.0");
});
