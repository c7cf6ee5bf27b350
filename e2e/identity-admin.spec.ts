// Admin: create a client (secret shown once), rotate the signing key, inspect a token.
import { expect, expectAccessible, test } from "./fixtures/workbench";

test("create a client, see its secret once, and get a token with it", async ({ page, request }) => {
  await page.goto("/admin");
  await expect(page.getByRole("cell", { name: /partner-cad/ }).first()).toBeVisible();
  await expectAccessible(page);
  const clientId = `e2e-${Date.now().toString(36)}`;
  await page.getByLabel("client_id").fill(clientId);
  await page.getByLabel("Display name").fill("E2E client");
  await page.getByRole("checkbox", { name: "agency.read" }).check();
  await page.getByRole("checkbox", { name: "North PSAP" }).check();
  await page.getByRole("button", { name: "Create client" }).click();
  const secret = (await page.getByTestId("client-secret").textContent())!;
  const res = await request.post("/connect/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, scope: "agency.read" },
  });
  expect(res.status()).toBe(200);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("client-secret")).toHaveCount(0);
});

test("rotate the signing key; the token inspector verifies old and new tokens", async ({ page, request }) => {
  const token = async () => {
    const r = await request.post("/connect/token", {
      form: {
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: "partner-cad-secret",
        scope: "agency.read",
      },
    });
    return ((await r.json()) as { access_token: string }).access_token;
  };
  const before = await token();
  await page.goto("/admin");
  await page.getByRole("button", { name: "Rotate signing key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "New current key" })).toBeVisible();
  await expect(page.getByTestId("signing-keys").getByText("published").first()).toBeVisible();

  await page.goto("/admin/tokens");
  for (const t of [before, await token()]) {
    await page.getByLabel("Access token").fill(t);
    await page.getByRole("button", { name: "Inspect" }).click();
    await expect(page.getByTestId("verification")).toContainText("Verifies against the current JWKS.");
    await expect(page.getByTestId("claims")).toContainText('"client_id": "partner-cad"');
  }
  await expectAccessible(page);
  await page.getByLabel("Access token").fill("not-a-token");
  await page.getByRole("button", { name: "Inspect" }).click();
  await expect(page.getByText("This is not a JWT")).toBeVisible();
});

test("`workbench keys rotate --json` makes a new key current; the old one stays in the JWKS", async ({
  request,
  baseURL,
}) => {
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync("node", ["packages/cli/bin/workbench.mjs", "keys", "rotate", "--json"], {
    env: { ...process.env, WORKBENCH_URL: baseURL },
    encoding: "utf8",
  });
  const rotated = JSON.parse(out) as { kid: string; previousKid: string };
  const jwks = (await (await request.get("/.well-known/jwks.json")).json()) as { keys: Array<{ kid: string }> };
  expect(jwks.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([rotated.kid, rotated.previousKid]));
});

test("an API token made on the Admin page is shown once, listed, and revoked there", async ({ page }) => {
  await page.goto("/admin");
  const section = page.locator("section", { has: page.getByRole("heading", { name: /^API tokens/ }) });
  const name = `e2e-token-${Date.now().toString(36)}`;
  await section.getByLabel("Name").fill(name);
  await section.getByRole("button", { name: "Create token" }).click();
  await expect(section.getByRole("status")).toContainText(`API token ${name}: copy it now`);
  await expect(section.getByTestId("api-token")).toHaveText(/^wbt_\S{20,}$/);
  await expect(section.getByLabel("Name")).toHaveValue(""); // ready for the next one
  const row = page.getByTestId("api-tokens").getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  await section.getByRole("button", { name: "I have stored it" }).click();
  await expect(section.getByTestId("api-token")).toHaveCount(0);
  await expectAccessible(page);
});
