// Roles all the way to the screen (SECURITY.md, "Roles on screen"): on a shared workbench a member sees
// only the actions their role may use, by the same table the server enforces
// (server/api/procedure-roles.ts); read-only information stays. A crafted call is still FORBIDDEN.
import type { Page, TestInfo } from "@playwright/test";
import { E2E_SHARED_URL, E2E_URL } from "../playwright.config";
import type { Role } from "../server/workbench/access/roles";
import { DASHBOARD_PAGES } from "./fixtures/dashboard-pages";
import { createSharedMembers, sessionKeyHeaders, signInShared, type SharedMember } from "./fixtures/shared-members";
import { expect as baseExpect, test, attachScreenshot, SCREENSHOTS_WANTED } from "./fixtures/workbench";

const expect = baseExpect.configure({ timeout: 20_000 });

/** Each control that calls a procedure above a viewer's role: the page it is on, its name, the role it needs. */
const ACTIONS: Array<{ page: string; name: string | RegExp; role: Exclude<Role, "viewer"> }> = [
  { page: "/clock", name: "+1 min", role: "admin" },
  { page: "/clock", name: "Reset to real time", role: "admin" },
  { page: "/admin", name: "Rotate secret of partner-cad", role: "admin" },
  { page: "/admin", name: "Create client", role: "admin" },
  { page: "/admin", name: "Rotate signing key", role: "admin" },
  { page: "/admin", name: /^Save$/, role: "admin" },
  { page: "/admin", name: "Rediscover", role: "admin" },
  { page: "/admin", name: "Add member", role: "admin" },
  { page: "/admin", name: "Prune now", role: "admin" },
  { page: "/admin/tokens", name: "Inspect", role: "integrator" },
  { page: "/simulator", name: "Raise incident", role: "integrator" },
  { page: "/conformance", name: "Run checks", role: "integrator" },
  { page: "/reference-receivers", name: "Apply fault", role: "integrator" },
  { page: "/reference-receivers", name: "Heal", role: "integrator" },
  { page: "/reference-receivers", name: /^Set$/, role: "integrator" },
  { page: "/reference-receivers", name: "Set version", role: "integrator" },
  { page: "/deliveries", name: "Resend this delivery", role: "integrator" },
  { page: "/deliveries", name: "Resend incident", role: "integrator" },
];
const RANK: Record<Role, number> = { viewer: 0, integrator: 1, admin: 2 };

test.use({ baseURL: E2E_SHARED_URL });
test.describe.configure({ mode: "serial" });

let members: Record<Role, SharedMember>;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000); // sign-ins hash passwords (scrypt) on a shared 2-core machine
  members = await createSharedMembers(browser);
});

/** Opens `path` once its data is in; on the inspector, selects the first delivery so its actions are drawn. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  if (path.endsWith("/reference-receivers"))
    await expect(page.getByText("Capabilities (supports.incident)").first()).toBeVisible();
  if (path.endsWith("/deliveries")) {
    await page.getByTestId("delivery-row").first().click();
    await expect(page.getByTestId("delivery-detail")).toBeVisible();
    await expect(page.getByRole("button", { name: "Show lane" })).toBeVisible();
  }
}

/**
 * The pages whose controls depend on the role, at laptop and desktop size: attached and kept as files
 * to look at (twenty full-page shots, about a minute on a 2-core machine): in CI only when asked
 * (SCREENSHOTS_WANTED).
 */
async function screenshots(page: Page, testInfo: TestInfo, who: Role) {
  if (!SCREENSHOTS_WANTED) return;
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(viewport);
    for (const path of ["/admin", "/reference-receivers", "/clock", "/deliveries", "/conformance"]) {
      await open(page, path);
      const name = `${who}${path.replaceAll("/", "-")}-${viewport.width}x${viewport.height}.png`;
      await attachScreenshot(page, testInfo, name, { fullPage: true, file: name });
    }
  }
}

for (const role of ["viewer", "integrator", "admin"] as const) {
  test(`${role === "viewer" ? "a" : "an"} ${role} sees exactly the actions the role may use, on every dashboard page`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const member = members[role];
    await signInShared(page, member.username, member.password);
    await expect(page.getByTestId("signed-in-as")).toContainText(`· ${role}`);
    for (const path of DASHBOARD_PAGES) {
      await open(page, path);
      for (const action of ACTIONS) {
        const button = page.getByRole("button", { name: action.name, exact: typeof action.name === "string" });
        const shown = action.page === path && RANK[role] >= RANK[action.role];
        if (shown) await expect(button.first(), `${role} on ${path}: ${String(action.name)}`).toBeVisible();
        else await expect(button, `${role} on ${path}: ${String(action.name)}`).toHaveCount(0);
      }
    }
    if (role !== "integrator") await screenshots(page, testInfo, role);
  });
}

test("local mode has no sign-in and acts as admin: every action is shown", async ({ page }) => {
  test.setTimeout(120_000);
  for (const path of new Set(ACTIONS.map((a) => a.page))) {
    await open(page, `${E2E_URL}${path}`);
    await expect(page.getByTestId("access-mode")).toHaveText("local");
    for (const action of ACTIONS.filter((a) => a.page === path)) {
      const button = page.getByRole("button", { name: action.name, exact: typeof action.name === "string" });
      await expect(button.first(), `local on ${path}: ${String(action.name)}`).toBeVisible();
    }
  }
});

test("a viewer still reads what the actions would change, and capability switches are off with the reason", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInShared(page, members.viewer.username, members.viewer.password, "/clock");
  await expect(page.getByTestId("clock-now")).not.toHaveText("…");
  await expect(page.getByTestId("role-gate")).toContainText("Moving the workbench clock needs the admin role");

  await open(page, "/admin");
  await expect(page.getByTestId("signing-keys").getByRole("row").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Clients" })).toBeVisible();
  await expect(page.getByLabel("Receiver URL").first()).toHaveJSProperty("readOnly", true);
  const gates = page.getByTestId("role-gate");
  await expect(gates.filter({ hasText: "Managing members" })).toContainText(
    "Managing members and API tokens needs the admin role",
  );
  await expect(gates.filter({ hasText: "Retention" })).toContainText("needs the admin role");

  await open(page, "/reference-receivers");
  const flag = page.getByRole("checkbox", { name: /: incident\./ }).first();
  await expect(flag).toBeDisabled();
  await expect(flag).toHaveAttribute("title", /needs the integrator role/);
  await expect(page.locator("[data-testid^=fault-]").first()).toBeVisible();
});

test("crafted calls below the role are still answered FORBIDDEN", async ({ browser }) => {
  test.setTimeout(90_000);
  const calls: Array<[Role, string, unknown]> = [
    ["viewer", "receivers.setFault", { key: "north-psap", mode: "down" }],
    ["viewer", "receivers.setCapabilities", { key: "north-psap", allowsMonitoring: false }],
    ["viewer", "conformance.start", { receiverUrl: "https://cad.example.com/webhooks" }],
    ["viewer", "deliveries.resend", { incidentId: "00000000-0000-4000-8000-000000000000", integration: "x" }],
    ["viewer", "deliveries.replay", {}],
    ["integrator", "clock.advance", { byMs: 60_000 }],
    ["integrator", "identity.keys.rotate", undefined],
    ["integrator", "access.members.create", { username: "sneaky", role: "admin", password: "sneaky-password-1" }],
  ];
  for (const role of ["viewer", "integrator"] as const) {
    const context = await browser.newContext({ baseURL: E2E_SHARED_URL });
    const page = await context.newPage();
    await signInShared(page, members[role].username, members[role].password);
    // The member's full credentials (the cookie and the session's key): the role is what refuses.
    const headers = await sessionKeyHeaders(page);
    for (const [who, path, input] of calls.filter(([r]) => r === role)) {
      const res = await page.request.post(`/api/trpc/${path}`, { data: { json: input }, headers });
      expect(res.status(), `${who} → ${path}`).toBe(403);
      expect(await res.text()).toContain("FORBIDDEN");
    }
    await context.close();
  }
});
