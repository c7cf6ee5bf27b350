// The Content-Security-Policy in Chromium (SECURITY.md; docs/decisions/0056-roles-on-screen-and-a-strict-csp.md):
// every dashboard, portal and sign-in page carries a policy whose scripts are the workbench's own and,
// inline, only those with the response's nonce; and no page trips it (no securitypolicyviolation event,
// no CSP console error) while it loads and hydrates. An injected inline script is refused.
import type { Page, Response } from "@playwright/test";
import { E2E_SHARED_URL } from "../playwright.config";
import { DASHBOARD_PAGES } from "./fixtures/dashboard-pages";
import { expect, test } from "./fixtures/workbench";

type Violations = { events: string[]; console: string[] };

/** Records the page's CSP violations from its first script on (Playwright's init scripts are not subject to the policy). */
async function watchViolations(page: Page): Promise<Violations> {
  const found: Violations = { events: [], console: [] };
  await page.exposeFunction("__reportCspViolation", (text: string) => found.events.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void }).__reportCspViolation;
      void report(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) found.console.push(m.text());
  });
  return found;
}

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1) ?? [];

/** The document's policy: present, scripts own or nonced, nothing inline or evaluated; returns its nonce. */
async function expectStrictPolicy(response: Response | null, path: string): Promise<string | undefined> {
  expect(response, path).not.toBeNull();
  const policy = (await response!.allHeaders())["content-security-policy"];
  expect(policy, `${path} has a Content-Security-Policy`).toBeTruthy();
  const scripts = directive(policy!, "script-src");
  expect(scripts[0], path).toBe("'self'");
  expect(scripts, path).not.toContain("'unsafe-inline'");
  expect(scripts, path).not.toContain("'unsafe-eval'");
  for (const [name, value] of [
    ["default-src", "'self'"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["frame-ancestors", "'none'"],
    ["form-action", "'self'"],
  ])
    expect(directive(policy!, name!)[0], `${path}: ${name}`).toBe(value);
  return scripts.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
}

/** Loads `path`, waits until it has hydrated and settled, and checks its policy and that nothing was refused. */
async function visit(page: Page, found: Violations, path: string, options: { nonce: boolean }) {
  const response = await page.goto(path);
  await page.waitForLoadState("networkidle");
  const nonce = await expectStrictPolicy(response, path);
  if (options.nonce) {
    expect(nonce, `${path}: a page Next renders has a nonce`).toBeTruthy();
    // Every script of the document carries it (Chromium hides the attribute, not the property).
    const nonces = await page.evaluate(() => [...document.scripts].map((s) => s.nonce));
    expect(nonces.length, path).toBeGreaterThan(0);
    expect(new Set(nonces), path).toEqual(new Set([nonce]));
  }
  expect(found, `${path} trips the policy`).toEqual({ events: [], console: [] });
}

test("every dashboard page, and an incident's, loads and hydrates without a CSP violation", async ({
  page,
  workbench,
}) => {
  test.setTimeout(120_000);
  const found = await watchViolations(page);
  const [incident] = await workbench.incidents.list.query({});
  for (const path of [...DASHBOARD_PAGES, `/incidents/${incident!.id}`, "/no-such-page"]) {
    await visit(page, found, path, { nonce: true });
  }
  // Hydrated: a client-side control works (the caller badge is drawn by a client component).
  await page.goto("/");
  await expect(page.getByTestId("access-mode")).toHaveText("local");
});

test("the portal's sign-in through the login form, and every portal page, without a CSP violation", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const found = await watchViolations(page);
  await visit(page, found, "/portal", { nonce: true });
  // The whole sign-in: a script-made redirect to the login form (Hono, no script), the form's post and its
  // redirect to /portal/callback (form-action), and the callback page's token exchange (connect-src).
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/connect\/authorize\?/);
  await expectStrictPolicy(await page.reload(), "/connect/authorize");
  await page.getByLabel("Username").fill("dispatcher.north");
  await page.getByLabel("Password").fill("workbench");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/portal(\/incidents)?$/);
  await page.waitForLoadState("networkidle");
  expect(found).toEqual({ events: [], console: [] });

  const input = encodeURIComponent(JSON.stringify({ json: { state: "all" } }));
  const listed = await page.request.get(`/api/trpc/portal.incidents?input=${input}`);
  const [first] = ((await listed.json()) as { result: { data: { json: Array<{ id: string }> } } }).result.data.json;
  for (const path of [
    "/portal/incidents",
    `/portal/incidents/${first!.id}`,
    `/portal/incidents/${first!.id}/chat`,
    `/portal/incidents/${first!.id}/live-video`,
  ])
    await visit(page, found, path, { nonce: true });
});

test("the shared workbench's /auth pages carry the policy, without a CSP violation", async ({ page }) => {
  const found = await watchViolations(page);
  await visit(page, found, `${E2E_SHARED_URL}/auth/setup`, { nonce: false });
  const signIn = await page.goto(`${E2E_SHARED_URL}/auth/sign-in?next=/`);
  await expect(page.getByRole("heading", { name: "Sign in to the workbench" })).toBeVisible();
  await expectStrictPolicy(signIn, "/auth/sign-in → /connect/authorize");
  expect(found).toEqual({ events: [], console: [] });
});

test("an injected inline script is refused and reported", async ({ page }) => {
  const found = await watchViolations(page);
  await page.goto("/deliveries");
  await page.waitForLoadState("networkidle");
  const ran = await page.evaluate(async () => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = true";
    document.body.append(script);
    await new Promise((r) => setTimeout(r, 100));
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => found.events.length).toBeGreaterThan(0);
  expect(found.events[0]).toContain("script-src");
});
