// Cookies stay home (SECURITY.md, "Sessions bound to their page"; docs/decisions/0071): browsers
// scope cookies by host, not port, so a page on another port of the workbench's host receives the
// session cookie and can set one. In Chromium, against the shared workbench on localhost, a server
// on another localhost port plays that page: the cookie it collects, replayed, reads and changes
// nothing; a viewer's session cookie it sets does not make the admin's page run as that viewer; and
// a sign-in it starts and plants (login CSRF by tossing) completes in no tab.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { E2E_SHARED_ADMIN_PASSWORD, E2E_SHARED_URL } from "../playwright.config";
import { callTrpc, signInToDashboard } from "../server/testing/dashboard-access-client";
import { SESSION_KEY_STORAGE } from "../server/workbench/access/session-key-names";
import { createSharedMembers, signInShared, type SharedMember } from "./fixtures/shared-members";
import { expect, test } from "./fixtures/workbench";

test.use({ baseURL: E2E_SHARED_URL });

/** What the other port's server saw and what it answers next. */
type OtherPort = { url: string; cookies: string[]; answer: (res: http.ServerResponse) => void };

let other: http.Server;
let port: OtherPort;
let viewer: SharedMember;
test.beforeAll(async ({ browser }) => {
  viewer = (await createSharedMembers(browser)).viewer;
  const seen: string[] = [];
  port = {
    url: "",
    cookies: seen,
    answer: (res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>"),
  };
  other = http.createServer((req, res) => {
    if (req.headers.cookie) seen.push(req.headers.cookie);
    port.answer(res);
  });
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  // localhost, as the workbench: the same host to the browser's cookie jar, another origin.
  port.url = `http://localhost:${(other.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => other.close(() => resolve()));
});

const sessionCookieOf = (header: string) => /(?:^|;\s*)(wb_session=[^;]+)/.exec(header)?.[1];

test("a session cookie collected on another port, replayed, reads and changes nothing", async ({ page }) => {
  test.setTimeout(90_000);
  await signInShared(page, "admin", E2E_SHARED_ADMIN_PASSWORD, "/admin");
  await page.goto(`${port.url}/collect`);
  const stolen = sessionCookieOf(port.cookies.at(-1) ?? "");
  expect(stolen, "the browser sent the workbench's cookie to the other port").toBeTruthy();

  const replayed = { cookie: stolen! };
  expect((await callTrpc(E2E_SHARED_URL, "access.apiTokens.list", { headers: replayed })).error?.code).toBe(
    "UNAUTHORIZED",
  );
  const create = await callTrpc(E2E_SHARED_URL, "access.apiTokens.create", {
    mutation: true,
    input: { name: "stolen", role: "admin" },
    headers: replayed,
  });
  expect(create.error?.code).toBe("UNAUTHORIZED");
  expect((await callTrpc(E2E_SHARED_URL, "access.members.list", { headers: replayed })).error?.code).toBe(
    "UNAUTHORIZED",
  );
  // The admin's own tab, which holds the key, still works.
  await page.goto("/admin");
  await expect(page.getByTestId("signed-in-as")).toContainText("admin · admin");
});

test("a viewer's session cookie set from another port does not make the admin's page run as the viewer", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const tossedSession = (await signInToDashboard(E2E_SHARED_URL, viewer.username, viewer.password)).sessionCookie!;
  await signInShared(page, "admin", E2E_SHARED_ADMIN_PASSWORD, "/admin");
  await expect(page.getByTestId("signed-in-as")).toContainText("admin · admin");
  // The other port answers with the viewer's cookie for the whole host, replacing the admin's.
  port.answer = (res) =>
    res.writeHead(200, { "content-type": "text/html", "set-cookie": `${tossedSession}; Path=/; HttpOnly` }).end("ok");
  await page.goto(`${port.url}/toss`);
  await page.goto("/admin");
  await expect(page.getByTestId("session-banner")).toBeVisible();
  await expect(page.getByTestId("session-banner")).toContainText("does not hold the key of the workbench session");
  await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  await expect(page.getByText(viewer.username)).toHaveCount(0);

  // The way back: the banner's sign-in, which comes back to this page.
  await page.getByTestId("session-banner").getByRole("link", { name: "Sign in again" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to the workbench" })).toBeVisible();
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(E2E_SHARED_ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${E2E_SHARED_URL}/admin`, { timeout: 30_000 });
  await expect(page.getByTestId("signed-in-as")).toContainText("admin · admin");

  // Shadowing instead (a second cookie on a longer path, sent first): the admin's key picks the admin's own.
  port.answer = (res) =>
    res
      .writeHead(200, { "content-type": "text/html", "set-cookie": `${tossedSession}; Path=/api/trpc; HttpOnly` })
      .end("ok");
  await page.goto(`${port.url}/shadow`);
  await page.goto("/admin");
  await expect(page.getByTestId("signed-in-as")).toContainText("admin · admin");
  await expect(page.getByTestId("session-banner")).toHaveCount(0);
  port.answer = (res) =>
    res
      .writeHead(200, { "content-type": "text/html", "set-cookie": "wb_session=; Path=/api/trpc; Max-Age=0" })
      .end("ok");
  await page.goto(`${port.url}/clean`);
});

test("a sign-in another port started and planted completes in no tab (login CSRF by tossing)", async ({ page }) => {
  test.setTimeout(90_000);
  // The attacker signs in as the viewer up to the callback, and keeps the callback and its pending cookie.
  const planted = await signInToDashboard(E2E_SHARED_URL, viewer.username, viewer.password, "/", {
    stopAtCallback: true,
  });
  expect(planted.callbackUrl).toMatch(/\/auth\/callback\?code=/);
  port.answer = (res) =>
    res
      .writeHead(302, {
        "set-cookie": `${planted.pendingCookie!}; Path=/auth; HttpOnly`,
        location: planted.callbackUrl!,
      })
      .end();
  await page.goto(`${port.url}/plant`);
  await expect(page.getByRole("heading", { name: "Sign-in not completed" })).toBeVisible();
  expect(await page.evaluate((at) => localStorage.getItem(at), SESSION_KEY_STORAGE)).toBeNull();
  // The viewer's session cookie was set, but no page holds its key: nothing runs as the viewer.
  await page.goto("/admin");
  await expect(page.getByTestId("session-banner")).toBeVisible();
  await expect(page.getByText(`${viewer.username} · viewer`)).toHaveCount(0);
});
