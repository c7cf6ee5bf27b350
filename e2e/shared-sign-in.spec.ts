// A shared workbench (the second webServer of playwright.config.ts): sign-in through
// the workbench's own identity server's form, the caller shown with sign-out, and a
// viewer who does not see admin actions.
import { E2E_SHARED_ADMIN_PASSWORD, E2E_SHARED_URL } from "../playwright.config";
import { expect as baseExpect, test } from "./fixtures/workbench";

// The first page after a sign-in compiles nothing but waits for the loaded machine: more than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

test.use({ baseURL: E2E_SHARED_URL });

async function signIn(page: import("@playwright/test").Page, username: string, password: string) {
  await expect(page.getByRole("heading", { name: "Sign in to the workbench" })).toBeVisible();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an admin signs in through the form, adds a viewer, and the viewer sees no admin actions", async ({ page }) => {
  test.setTimeout(150_000); // two sign-ins (scrypt) and a member created, on a shared 2-core machine
  await page.goto("/admin");
  // Unsigned: the dashboard sends the browser to the identity server's form, and back to /admin after.
  await expect(page).toHaveURL(/\/connect\/authorize\?/);
  await signIn(page, "admin", "not-the-password");
  await expect(page.getByRole("alert")).toHaveText("Unknown member, wrong password, or the member is disabled.");
  await page.getByLabel("Password").fill(E2E_SHARED_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${E2E_SHARED_URL}/admin`);
  await expect(page.getByTestId("signed-in-as")).toContainText("admin · admin");
  await expect(page.getByTestId("access-mode-value")).toHaveText("shared");
  await expect(page.getByTestId("dev-credentials-value")).toHaveText("refused");
  await expect(page.getByRole("button", { name: "Rotate secret of partner-cad" })).toBeVisible();

  const viewer = `viewer-${Date.now()}`;
  const members = page.getByRole("region", { name: /Workbench members/ });
  await members.getByLabel("Name").fill(viewer);
  await members.getByLabel("Password (12+ characters)").fill("viewer-password-1");
  await members.getByRole("button", { name: "Add member" }).click();
  await expect(page.getByTestId("members")).toContainText(viewer);
  // An admin can end a member's wait after wrong passwords (docs/decisions/0051-guessing-slowed-down.md).
  const viewerRow = page.getByTestId("members").getByRole("row").filter({ hasText: viewer });
  await viewerRow.getByRole("button", { name: "Clear wait" }).click();
  await expect(viewerRow.getByRole("status")).toHaveText("No failed sign-ins counted");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();

  await page.goto("/admin");
  await signIn(page, viewer, "viewer-password-1");
  await expect(page).toHaveURL(`${E2E_SHARED_URL}/admin`);
  await expect(page.getByTestId("signed-in-as")).toContainText(`${viewer} · viewer`);
  await expect(page.getByTestId("role-gate").filter({ hasText: "Managing members" })).toContainText(
    "needs the admin role",
  );
  await expect(page.getByTestId("access-mode-value")).toHaveText("shared");
  await expect(page.getByRole("button", { name: /Rotate secret/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rotate signing key" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add member" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Prune now" })).toHaveCount(0);
});
