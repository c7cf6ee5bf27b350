// Passwordless sign-in: the partner backend asks for a sign-in token and the
// dispatcher's browser opens the portal with it, no password typed.
import { expect, test } from "@workbench/playwright";

test("a dispatcher signed in by token sees the agency's new incident in the portal", async ({
  partnerApi,
  dispatcherPage: page,
}) => {
  const label = `Portal check ${Date.now()}`;
  const incidentId = await partnerApi.createIncident({ label });
  await page.goto(`/portal/incidents/${incidentId}`);
  await expect(page.getByText(label).first()).toBeVisible();
});
