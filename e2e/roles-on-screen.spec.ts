// Roles all the way to the screen (SECURITY.md, "Roles on screen"): on a shared workbench a member sees
// only the actions their role may use, by the same table the server enforces
// (server/api/procedure-roles.ts); read-only information stays. A crafted call is still FORBIDDEN.
//
// The walk asks the screen, not a list of buttons: every control drawn only for callers who may call a
// procedure carries its procedure (`data-procedure`, may-call.tsx `calls`). An admin's walk finds what
// each page draws; every other role must draw exactly the part of it the table lets that role call.
import type { Page, TestInfo } from "@playwright/test";
import { E2E_SHARED_URL, E2E_URL } from "../playwright.config";
import { PROCEDURE_ROLES } from "../server/api/procedure-roles.ts";
import { mayCall, type Role } from "../server/workbench/access/roles.ts";
import { DASHBOARD_PAGES } from "./fixtures/dashboard-pages";
import { createSharedMembers, sessionKeyHeaders, signInShared, type SharedMember } from "./fixtures/shared-members";
import { expect as baseExpect, test, attachScreenshot, SCREENSHOTS_WANTED } from "./fixtures/workbench";

const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * The procedures above a viewer's role that no page of the walk draws a control for, and why. Any
 * other such procedure must be found on screen: a new one fails the walk until it is drawn, gated
 * and marked, or named here.
 */
const NOT_ON_THE_WALK: Record<string, string> = {
  "deliveries.replay": "the CLI's `workbench deliveries replay FILE` (an export): no dashboard control",
  "system.resetSeed": "the CLI's `workbench seed reset`: no dashboard control",
  "simulator.act": "the action rows of a selected incident, drawn inside the simulator.raise gate",
  "integrations.detachListener": "beside an attached listener only (e2e/listen.spec.ts)",
  "access.apiTokens.list": "read by the access section, inside the access.members.list gate",
  "access.members.update": "each member's row, inside the access.members.list gate",
  "access.apiTokens.revoke": "each token's row, inside the access.members.list gate",
  "access.clearGuessThrottle": "each member's and slowed-down key's row, inside the admin gates",
  "calls.faults.set": "the CLI's `workbench calls fault`: no dashboard control",
  "calls.faults.clear": "the CLI's `workbench calls fault --clear-all`: no dashboard control",
};
const ABOVE_VIEWER = Object.keys(PROCEDURE_ROLES).filter((p) => PROCEDURE_ROLES[p] !== "viewer");

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

/** The procedures whose gated controls `page` draws now, sorted. */
async function drawnProcedures(page: Page): Promise<string[]> {
  const found = await page
    .locator("[data-procedure]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-procedure")!));
  return [...new Set(found)].sort();
}

/** What each page draws for an admin (the shared workbench's), found by its walk. */
const drawnForAdmin = new Map<string, string[]>();

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

test("an admin's walk draws a gated control for every procedure above a viewer's role, each a procedure of the table", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await signInShared(page, members.admin.username, members.admin.password);
  await expect(page.getByTestId("signed-in-as")).toContainText("· admin");
  for (const path of DASHBOARD_PAGES) {
    await open(page, path);
    const drawn = await drawnProcedures(page);
    for (const procedure of drawn) expect(PROCEDURE_ROLES, `${path} marks ${procedure}`).toHaveProperty([procedure]);
    drawnForAdmin.set(path, drawn);
  }
  const onScreen = new Set([...drawnForAdmin.values()].flat());
  for (const procedure of ABOVE_VIEWER) {
    if (procedure in NOT_ON_THE_WALK)
      expect(onScreen.has(procedure), `${procedure} is drawn: take it off NOT_ON_THE_WALK`).toBe(false);
    else
      expect(onScreen.has(procedure), `${procedure} (${PROCEDURE_ROLES[procedure]}) has no control on the walk`).toBe(
        true,
      );
  }
  await screenshots(page, testInfo, "admin");
});

for (const role of ["viewer", "integrator"] as const) {
  test(`${role === "viewer" ? "a" : "an"} ${role} sees exactly the actions the role may use, on every dashboard page`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    const member = members[role];
    await signInShared(page, member.username, member.password);
    await expect(page.getByTestId("signed-in-as")).toContainText(`· ${role}`);
    for (const path of DASHBOARD_PAGES) {
      await open(page, path);
      const expected = drawnForAdmin.get(path)!.filter((p) => mayCall(role, p, PROCEDURE_ROLES));
      expect(await drawnProcedures(page), `${role} on ${path}`).toEqual(expected);
      // What it draws it shows: each gated button is visible, not merely in the page.
      for (const procedure of expected) {
        const buttons = page.locator(`button[data-procedure="${procedure}"]`);
        if (await buttons.count()) await expect(buttons.first(), `${role} on ${path}: ${procedure}`).toBeVisible();
      }
    }
    if (role === "viewer") await screenshots(page, testInfo, role);
  });
}

test("local mode has no sign-in and acts as admin: every page draws what an admin's does", async ({ page }) => {
  test.setTimeout(120_000);
  for (const path of DASHBOARD_PAGES) {
    await open(page, `${E2E_URL}${path}`);
    await expect(page.getByTestId("access-mode")).toHaveText("local");
    expect(await drawnProcedures(page), `local on ${path}`).toEqual(drawnForAdmin.get(path));
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
