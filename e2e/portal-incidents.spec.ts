// The dispatcher portal: passwordless sign-in through the real redirect, the
// live incident list, an incident page (the openUrl target), chat and live
// video; and a simulator scenario run showing up in the portal.
import { expect, expectAccessible, test, attachScreenshot } from "./fixtures/workbench";
import { signInToPortal } from "./fixtures/portal-sign-in";

const DEMO_FALL = "0b0c5b52-1c0e-4a57-9a57-200000000001";

test("a dispatcher signs in without a password and sees North PSAP's incidents and an incident page", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  await signInToPortal(page, request);
  await expect(page).toHaveURL(/\/portal\/incidents$/);
  await expect(page.getByRole("heading", { level: 1, name: "Incidents" })).toBeVisible();
  const demo = page.locator(`[data-testid=incident-row][data-incident-id="${DEMO_FALL}"]`);
  await expect(demo).toBeVisible();
  await expect(demo.getByTestId("purpose-badge")).toHaveAttribute("data-purpose", "Demo");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "portal-incident-list", { fullPage: true });

  // Live: an incident raised now appears without a reload; the purpose filter hides it again.
  const raised = await workbench.simulator.raise.mutate({
    origin: "ConnectorAdmin",
    agencyId: "0b0c5b52-1c0e-4a57-9a57-000000000001",
    location: { latitude: 59.962, longitude: 10.768, accuracy: 12 },
  });
  const testRow = page.locator(`[data-testid=incident-row][data-incident-id="${raised.incidentId}"]`);
  await expect(testRow).toBeVisible({ timeout: 3_000 });
  await expect(testRow).toContainText("TEST — not a real emergency");
  await page.getByTestId("filter-purpose").selectOption("Demo");
  await expect(testRow).toHaveCount(0);
  await expect(demo).toBeVisible();

  await demo.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/portal/incidents/${DEMO_FALL}$`));
  await expect(page.getByTestId("incident-snapshot")).toBeVisible();
  await expect(page.getByRole("list", { name: "Changes, newest first" })).toContainText("Incident created");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "portal-incident-page", { fullPage: true });
});

test("the openUrl of a raised incident opens its page; caller chat and live video follow the simulator", async ({
  page,
  request,
  workbench,
}, testInfo) => {
  const raised = await workbench.simulator.raise.mutate({
    origin: "MobileApp",
    agencyId: "0b0c5b52-1c0e-4a57-9a57-000000000001",
    phoneNumber: "+4795009900",
    location: { latitude: 59.962, longitude: 10.768, accuracy: 30 },
  });
  const path = new URL(raised.openUrl).pathname;
  await signInToPortal(page, request, { returnUrl: path });
  await expect(page.getByTestId("incident-snapshot")).toHaveAttribute("data-purpose", "Real");

  await workbench.simulator.act.mutate({ incidentId: raised.incidentId, action: { action: "activateChat" } });
  await workbench.simulator.act.mutate({
    incidentId: raised.incidentId,
    action: { action: "chatMessage", text: "There is smoke in the stairwell" },
  });
  await page.goto(`${path}/chat`);
  await expect(page.getByTestId("channel-state")).toHaveText("Active");
  await expect(page.getByTestId("chat-messages")).toContainText("There is smoke in the stairwell");
  await page.getByLabel("Reply to the caller").fill("Leave through the balcony if you can.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("chat-messages")).toContainText("Leave through the balcony");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "portal-chat", { fullPage: true });

  await workbench.simulator.act.mutate({ incidentId: raised.incidentId, action: { action: "activateLiveVideo" } });
  await page.goto(`${path}/live-video`);
  await expect(page.getByTestId("stream-live")).toBeVisible();
  await workbench.simulator.act.mutate({ incidentId: raised.incidentId, action: { action: "endLiveVideo" } });
  await expect(page.getByTestId("stream-ended")).toBeVisible({ timeout: 3_000 });
  await expect(page.getByTestId("channel-state")).toHaveText("Ended");
  await expectAccessible(page);
  await attachScreenshot(page, testInfo, "portal-live-video", { fullPage: true });
});

test("an incident page opened without a session leads through the login form straight back to that incident", async ({
  page,
}) => {
  await page.goto(`/portal/incidents/${DEMO_FALL}`);
  await expect(page).toHaveURL(new RegExp(`/portal\\?next=${encodeURIComponent(`/portal/incidents/${DEMO_FALL}`)}$`));
  await expect(page.getByRole("heading", { name: "Not signed in" })).toBeVisible();
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Username").fill("dispatcher.north");
  await page.getByLabel("Password").fill("workbench");
  await page.getByRole("button", { name: "Sign in" }).click();
  // No page in between to click through: the callback redeems the code and opens the incident.
  await expect(page).toHaveURL(new RegExp(`/portal/incidents/${DEMO_FALL}$`));
  await expect(page.getByTestId("incident-header")).toBeVisible();
  await expect(page.getByTestId("portal-header-user")).toContainText("North PSAP");
});

test("next only follows portal paths", async ({ page, request }) => {
  await signInToPortal(page, request, { returnUrl: "/portal" });
  await page.goto(`/portal?next=${encodeURIComponent("//evil.example/portal/x")}`);
  await expect(page).toHaveURL(/\/portal\?next=/);
  await expect(page.getByTestId("portal-user")).toHaveText("dispatcher.north");
});
