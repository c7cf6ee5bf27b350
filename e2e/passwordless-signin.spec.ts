// The spec's passwordless sequence end to end: a partner backend gets a token
// (client_credentials, identity.user.signin), asks GetUserSigninToken, and the
// browser opens LoginUserByToken with the token as delivered; it lands on /portal
// signed in. Also the portal's own login form through authorization_code + PKCE.
import { expect, expectAccessible, test } from "./fixtures/workbench";

const NORTH = "0b0c5b52-1c0e-4a57-9a57-000000000001";

test("a partner backend signs dispatcher.north into the portal without a password", async ({ page, request }) => {
  const tokenRes = await request.post("/connect/token", {
    form: {
      grant_type: "client_credentials",
      client_id: "partner-cad",
      client_secret: "partner-cad-secret",
      scope: "identity.user.signin",
    },
  });
  expect(tokenRes.status()).toBe(200);
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const signin = await request.post("/Account/GetUserSigninToken", {
    headers: { authorization: `Bearer ${access_token}` },
    data: { agencyContext: NORTH, username: "dispatcher.north" },
  });
  expect(signin.status()).toBe(200);
  const { token } = (await signin.json()) as { token: string };
  expect(token).toContain("%3D");

  // The token is used as delivered; returnUrl is encoded once.
  await page.goto(`/Account/LoginUserByToken?token=${token}&returnUrl=${encodeURIComponent("/portal")}`);
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByTestId("portal-user")).toHaveText("dispatcher.north");
  await expect(page.getByTestId("portal-agency")).toHaveText("North PSAP");
  await expectAccessible(page);

  // The cookie is a non-persistent HttpOnly session cookie.
  const cookie = (await page.context().cookies()).find((c) => c.name === "wb_portal_session")!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", expires: -1 });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Not signed in" })).toBeVisible();
});

test("the portal login form signs in through authorization_code + PKCE", async ({ page }) => {
  await page.goto("/portal");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the portal" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Username").fill("dispatcher.ems");
  await page.getByLabel("Password").fill("workbench");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Asked for no page: the incident list, signed in as the user of the form.
  await expect(page).toHaveURL(/\/portal\/incidents$/);
  await expect(page.getByRole("heading", { level: 1, name: "Incidents" })).toBeVisible();
  await page.goto("/portal");
  await expect(page.getByTestId("portal-user")).toHaveText("dispatcher.ems");
});
