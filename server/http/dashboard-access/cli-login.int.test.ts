// Black-box: the workbench's side of `workbench login` (/auth/cli, decision 0053) over HTTP on a shared
// workbench: sign-in on the way to the confirm page, where Authorize and Cancel send the browser (only
// to the CLI's loopback port), the single-use, short-lived, PKCE-bound code, the member's token
// within the member's role, revocation by its holder, and nothing secret in the logs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { callTrpc, signInToDashboard } from "../../testing/dashboard-access-client.ts";
import { answerCliLink, makeCliLink, redeemCliCode } from "../../testing/cli-login-client.ts";

const ADMIN_PASSWORD = "admin-password-for-tests";
let s: TestServer;
let admin: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer({
    dashboard: true,
    env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD },
  });
  admin = (await signInToDashboard(s.url, "admin", ADMIN_PASSWORD)).credentials!;
});
afterAll(async () => {
  await s.close();
});

/** Authorize a fresh link as this member; the code and the link. */
async function authorize(credentials: Record<string, string>, options: { port?: number } = {}) {
  const link = makeCliLink(options);
  const { answer } = await answerCliLink(s.url, link.path, credentials, "authorize");
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location")!);
  return { link, location, code: location.searchParams.get("code")! };
}

describe("/auth/cli on a shared workbench", () => {
  it("says the mode, sends an unsigned member to sign-in and back to the confirm page", async () => {
    expect(await (await fetch(`${s.url}/auth/cli/mode`)).json()).toEqual({ access: "shared" });
    const link = makeCliLink();
    const unsigned = await fetch(`${s.url}${link.path}`, { redirect: "manual" });
    expect(unsigned.status).toBe(302);
    expect(unsigned.headers.get("location")).toBe(`/auth/sign-in?next=${encodeURIComponent(link.path)}`);
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD, link.path);
    expect(signedIn.location).toBe(link.path);
  });

  it("shows what is authorised; Authorize sends a code to 127.0.0.1:<port>/callback only, Cancel access_denied", async () => {
    const link = makeCliLink({ port: 50_123, hostname: "build-box.local" });
    const { page, html, answer } = await answerCliLink(s.url, link.path, admin, "authorize");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    // Chromium holds the form's redirect to form-action: the policy names this one loopback origin.
    const formAction = /form-action ([^;]*)/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
    expect(formAction?.split(" ")).toContain("http://127.0.0.1:50123");
    expect(formAction).not.toContain("50124");
    expect(html.replace(/\s+/g, " ")).toContain(
      "<strong>Workbench CLI on build-box.local</strong> wants an API token as <strong>admin</strong>, role <strong>admin</strong>.",
    );
    const location = new URL(answer.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("http://127.0.0.1:50123/callback");
    expect([...location.searchParams.keys()].sort()).toEqual(["code", "state"]);
    expect(location.searchParams.get("state")).toBe(link.state);

    const cancel = await answerCliLink(s.url, makeCliLink({ port: 50_124 }).path, admin, "cancel");
    const cancelled = new URL(cancel.answer.headers.get("location")!);
    expect(`${cancelled.origin}${cancelled.pathname}`).toBe("http://127.0.0.1:50124/callback");
    expect(cancelled.searchParams.get("error")).toBe("access_denied");
    expect(cancelled.searchParams.get("code")).toBeNull();
  });

  it("refuses a malformed link, a cross-site or unsigned Authorize, and a port below 1024", async () => {
    const good = new URL(`${s.url}${makeCliLink().path}`);
    for (const [name, value] of [
      ["port", "80"],
      ["port", "abc"],
      ["state", "short"],
      ["code_challenge", "x".repeat(44)],
      ["code_challenge_method", "plain"],
      ["hostname", "evil.example/x"],
    ] as const) {
      const bad = new URL(good);
      bad.searchParams.set(name, value);
      const res = await fetch(bad, { headers: admin });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(await res.text()).toContain("Login link not valid");
    }
    const fields = Object.fromEntries(good.searchParams);
    const crossSite = await fetch(`${s.url}/auth/cli`, {
      method: "POST",
      redirect: "manual",
      headers: { ...admin, origin: "https://evil.example" },
      body: new URLSearchParams({ ...fields, decision: "authorize" }),
    });
    expect(crossSite.status).toBe(403);
    const unsigned = await fetch(`${s.url}/auth/cli`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: s.url },
      body: new URLSearchParams({ ...fields, decision: "authorize" }),
    });
    expect(unsigned.status).toBe(303);
    expect(unsigned.headers.get("location")).toMatch(/^\/auth\/sign-in\?next=/);
  });

  it("redeems a code once, with its verifier only, within two minutes, for a token of the member", async () => {
    const first = await authorize(admin);
    const wrong = await redeemCliCode(s.url, first.code, makeCliLink().verifier);
    expect(wrong).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // A wrong verifier spends the code: no second guess.
    expect((await redeemCliCode(s.url, first.code, first.link.verifier)).status).toBe(400);

    const second = await authorize(admin);
    const redeemed = await redeemCliCode(s.url, second.code, second.link.verifier);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body).toMatchObject({ name: "CLI on laptop-1", role: "admin", member: "admin" });
    expect(redeemed.body.token).toMatch(/^wbt_/);
    const days = (Date.parse(redeemed.body.expiresAt as string) - s.runtime.clock.nowMs()) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    const token = redeemed.body.token as string;
    expect((await callTrpc(s.url, "clock.show", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await redeemCliCode(s.url, second.code, second.link.verifier)).body).toMatchObject({
      error: "invalid_grant",
      error_description: "The login code is unknown, expired or used already.",
    });

    const late = await authorize(admin);
    const advanced = await callTrpc(s.url, "clock.advance", {
      mutation: true,
      input: { byMs: 121_000 },
      headers: admin,
    });
    expect(advanced.status).toBe(200);
    await expect.poll(() => s.runtime.clock.nowMs() - Date.now(), { timeout: 10_000 }).toBeGreaterThan(120_000);
    expect((await redeemCliCode(s.url, late.code, late.link.verifier)).status).toBe(400);
    await callTrpc(s.url, "clock.reset", { mutation: true, headers: admin });

    const malformed = await fetch(`${s.url}/auth/cli/token`, { method: "POST", body: "code=x" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: "invalid_request" });
    // Nothing secret in the logs: neither the code nor the token.
    expect(s.logs.text).not.toContain(second.code);
    expect(s.logs.text).not.toContain(token);
  });

  it("gives a member at most their role, follows a demotion and stops when the member is disabled", async () => {
    const created = await callTrpc(s.url, "access.members.create", {
      mutation: true,
      input: { username: "ivan", role: "integrator", password: "ivan-password-1" },
      headers: admin,
    });
    const ivanId = (created.data as { id: string }).id;
    const ivan = (await signInToDashboard(s.url, "ivan", "ivan-password-1")).credentials!;
    // The page offers the member's role and those below it; a role above theirs is refused.
    const above = await answerCliLink(s.url, makeCliLink().path, ivan, "authorize", "admin");
    expect([...above.html.matchAll(/name="role" value="(\w+)"/g)].map((m) => m[1])).toEqual(["viewer", "integrator"]);
    expect(above.answer.status).toBe(400);
    expect(await above.answer.text()).toContain("A token&#39;s role is at most yours (integrator).");
    const bogus = await answerCliLink(s.url, makeCliLink().path, ivan, "authorize", "root");
    expect(bogus.answer.status).toBe(400);
    // An admin may give the CLI less: a viewer token.
    const lowerCli = makeCliLink();
    const lower = await answerCliLink(s.url, lowerCli.path, admin, "authorize", "viewer");
    const lowerCode = new URL(lower.answer.headers.get("location")!).searchParams.get("code")!;
    const viewerToken = await redeemCliCode(s.url, lowerCode, lowerCli.verifier);
    expect(viewerToken.body).toMatchObject({ role: "viewer", member: "admin" });
    const advance = await callTrpc(s.url, "clock.advance", {
      mutation: true,
      input: { byMs: 1000 },
      headers: { authorization: `Bearer ${viewerToken.body.token as string}` },
    });
    expect(advance.error?.code).toBe("FORBIDDEN");

    const { code, link } = await authorize(ivan);
    const redeemed = await redeemCliCode(s.url, code, link.verifier);
    expect(redeemed.body).toMatchObject({ role: "integrator", member: "ivan" });
    const bearer = { authorization: `Bearer ${redeemed.body.token as string}` };
    const raise = () =>
      callTrpc(s.url, "simulator.raise", { mutation: true, input: { origin: "MobileApp" }, headers: bearer });
    expect((await raise()).status).toBe(200);
    expect((await callTrpc(s.url, "access.members.list", { headers: bearer })).error?.code).toBe("FORBIDDEN");

    await callTrpc(s.url, "access.members.update", {
      mutation: true,
      input: { id: ivanId, role: "viewer" },
      headers: admin,
    });
    expect((await raise()).error?.code).toBe("FORBIDDEN");
    expect((await callTrpc(s.url, "clock.show", { headers: bearer })).status).toBe(200);
    await callTrpc(s.url, "access.members.update", {
      mutation: true,
      input: { id: ivanId, disabled: true },
      headers: admin,
    });
    expect((await callTrpc(s.url, "clock.show", { headers: bearer })).error?.code).toBe("UNAUTHORIZED");
  });

  it("lets the holder of a token revoke it (workbench logout), once", async () => {
    const { code, link } = await authorize(admin);
    const token = (await redeemCliCode(s.url, code, link.verifier)).body.token as string;
    const revoke = () =>
      fetch(`${s.url}/auth/cli/revoke`, { method: "POST", headers: { authorization: `Bearer ${token}` } }).then((r) =>
        r.json(),
      );
    expect(await revoke()).toEqual({ revoked: true });
    expect(await revoke()).toEqual({ revoked: false });
    expect((await callTrpc(s.url, "clock.show", { headers: { authorization: `Bearer ${token}` } })).error?.code).toBe(
      "UNAUTHORIZED",
    );
    expect((await fetch(`${s.url}/auth/cli/revoke`, { method: "POST" })).status).toBe(400);
  });
});
