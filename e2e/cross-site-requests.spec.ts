// A real cross-origin page in Chromium against the running workbench (SECURITY.md,
// no cross-site writes): an "evil" page served from another origin tries a multipart form POST
// and fetch() POSTs at /api/trpc. Each is refused (403) and the workbench's state,
// read back over the API, is unchanged. Also: the dashboard still works from its
// own origin, the security headers are on dashboard, portal and login pages, and
// no page of the workbench can be framed by another site.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures/workbench";

const MOVED_MS = 3_600_000;

/** A page on another origin that posts at the workbench: a form (multipart, as `curl -F` sends) and fetch()es. */
function evilPage(target: string) {
  return `<!doctype html><html><body>
<form id="form" method="POST" enctype="multipart/form-data" action="${target}/api/trpc/clock.reset"><input name="x" value="1"><button>go</button></form>
<iframe id="frame" src="${target}/" title="framed dashboard"></iframe>
<script>
  // A "simple" cross-origin request: no preflight, the browser sends it and hides the answer (no-cors).
  window.fetchReset = () => fetch("${target}/api/trpc/clock.reset", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: "{}" }).then((r) => r.type);
  // The dashboard's own shape (JSON): the preflight is not answered, so the POST never leaves the browser.
  window.fetchJson = () => fetch("${target}/api/trpc/clock.advance", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ json: { byMs: 60000 } }) }).then(() => "sent", (e) => "blocked: " + e.message);
</script></body></html>`;
}

let evil: http.Server;
let evilOrigin: string;
test.beforeAll(async ({ baseURL }) => {
  evil = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(evilPage(baseURL!)));
  // 127.0.0.1 while the workbench is http://localhost:PORT: another origin and another site.
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  evilOrigin = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => evil.close(resolve));
});

test.beforeEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
  // The CLI's way in (no Origin, JSON): allowed, and gives the attacks something to undo.
  await workbench.clock.advance.mutate({ byMs: MOVED_MS });
});
test.afterEach(async ({ workbench }) => {
  await workbench.clock.reset.mutate();
});

test("a cross-site multipart form POST to clock.reset is refused and changes nothing", async ({ page, workbench }) => {
  await page.goto(evilOrigin);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/trpc/clock.reset"));
  await page.locator("#form button").click();
  const response = await answer;
  expect(response.status()).toBe(403);
  expect(response.request().headers()["content-type"]).toMatch(/^multipart\/form-data/);
  expect((await workbench.clock.show.query()).offsetMs).toBe(MOVED_MS);
});

test("cross-site fetch() POSTs (no-cors text/plain, and JSON) change nothing", async ({ page, workbench }) => {
  await page.goto(evilOrigin);
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/trpc/clock.reset"));
  expect(await page.evaluate(() => (window as unknown as { fetchReset: () => Promise<string> }).fetchReset())).toBe(
    "opaque",
  );
  expect((await answer).status()).toBe(403);
  expect(await page.evaluate(() => (window as unknown as { fetchJson: () => Promise<string> }).fetchJson())).toMatch(
    /^blocked/,
  );
  expect((await workbench.clock.show.query()).offsetMs).toBe(MOVED_MS);
});

test("the workbench refuses to be framed by another site", async ({ page, baseURL }) => {
  const refused = page.waitForResponse((r) => r.url() === `${baseURL}/` && r.request().frame() !== page.mainFrame());
  await page.goto(evilOrigin);
  expect((await refused).headers()["x-frame-options"]).toBe("DENY");
  // Chromium replaces a refused frame with its error page: the dashboard never renders inside it.
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
});

test("the dashboard's own pages still change state (same-origin)", async ({ page, workbench }) => {
  await page.goto("/clock");
  await page.getByRole("button", { name: "Reset to real time" }).click();
  await expect(page.getByTestId("clock-offset-value")).toHaveText("0 (real time)");
  expect((await workbench.clock.show.query()).offsetMs).toBe(0);
});

test("security headers on a dashboard page, a portal page and the login form", async ({ page }) => {
  for (const path of ["/", "/portal", "/connect/authorize?client_id=portal-spa"]) {
    const response = (await page.goto(path))!;
    const headers = response.headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["cross-origin-opener-policy"], path).toBe("same-origin");
  }
});
