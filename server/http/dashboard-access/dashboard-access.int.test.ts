// Black-box: who may call the dashboard of a shared workbench (sign-in through the
// workbench's own identity server, roles per procedure, API tokens, the first admin),
// that local mode stays open, and that the protocol surfaces never ask for a
// workbench session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { callTrpc, signInToDashboard } from "../../testing/dashboard-access-client.ts";
import { consumeSetupCredential } from "../../workbench/access/first-admin.ts";
import { SESSION_KEY_HEADER } from "../../workbench/access/session-key-names.ts";
import { createWorkbenchSession, sessionCookieName } from "../../workbench/access/sessions.ts";
import { answerCliLink, makeCliLink } from "../../testing/cli-login-client.ts";

/** The data a sign-in page's script carries (render-auth-pages.ts). */
const startData = (html: string) =>
  JSON.parse(/const d = (\{.*?\});/s.exec(html)![1]!) as { to: string; state: string };

const ADMIN_PASSWORD = "admin-password-for-tests";

describe("a shared workbench", () => {
  let s: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer({
      dashboard: true,
      env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD);
    expect(signedIn.status).toBe(200);
    admin = signedIn.credentials!;
  });
  afterAll(async () => {
    await s.close();
  });

  const member = async (username: string, role: "viewer" | "integrator") => {
    const created = await callTrpc(s.url, "access.members.create", {
      mutation: true,
      input: { username, role, password: `${username}-password-1` },
      headers: admin,
    });
    expect(created.status).toBe(200);
    const signedIn = await signInToDashboard(s.url, username, `${username}-password-1`);
    return signedIn.credentials!;
  };

  it("redirects an unsigned page request to sign-in, and comes back to the page after it", async () => {
    const res = await fetch(`${s.url}/incidents?state=open`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/auth/sign-in?next=${encodeURIComponent("/incidents?state=open")}`);
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD, "/incidents?state=open");
    expect(signedIn.location).toBe("/incidents?state=open");
    expect(signedIn.sessionCookie).toMatch(/^wb_session=/);
    const page = await fetch(`${s.url}/incidents`, { headers: signedIn.credentials! });
    expect(page.status).toBe(200);
  });

  it("sets the session cookie HttpOnly and SameSite=Lax, and goes back only to paths of its own origin", async () => {
    const start = await fetch(`${s.url}/auth/sign-in?next=${encodeURIComponent("//evil.example/x")}`, {
      redirect: "manual",
    });
    const authorize = new URL(startData(await start.text()).to);
    expect(authorize.pathname).toBe("/connect/authorize");
    expect(authorize.searchParams.get("client_id")).toBe("workbench-dashboard");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD, "//evil.example/x");
    expect(signedIn.location).toBe("/");
    const raw = await fetch(`${s.url}/auth/sign-in`, { redirect: "manual" });
    expect(raw.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect(raw.headers.get("set-cookie")).toMatch(/SameSite=Lax/i);
  });

  it("hands the session's key to the sign-in's tab only, through the page's nonced script", async () => {
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD);
    expect(signedIn.sessionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = signedIn.body!;
    const nonce = /<script nonce="([^"]+)">/.exec(page)![1]!;
    expect(page).toContain("sessionStorage.getItem(d.stateAt) === d.state");
    expect(page).toContain("localStorage.setItem(d.keyAt, d.key)");
    // Only the key's hash is stored.
    const row = await s.runtime.db.workbenchSession.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(row.keyHash).not.toBeNull();
    expect(row.keyHash).not.toContain(signedIn.sessionKey);
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{24}$/);
  });

  it("refuses a session cookie without its key on every data call and state change, and a key of another session", async () => {
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD);
    const cookieOnly = { cookie: signedIn.sessionCookie! };
    for (const answer of [
      await callTrpc(s.url, "clock.show", { headers: cookieOnly }),
      await callTrpc(s.url, "access.apiTokens.list", { headers: cookieOnly }),
      await callTrpc(s.url, "clock.advance", { mutation: true, input: { byMs: 1000 }, headers: cookieOnly }),
      await callTrpc(s.url, "clock.show", { headers: { ...cookieOnly, [SESSION_KEY_HEADER]: "forged" } }),
      await callTrpc(s.url, "clock.show", {
        headers: { ...cookieOnly, [SESSION_KEY_HEADER]: admin[SESSION_KEY_HEADER]! },
      }),
    ]) {
      expect(answer.error?.code).toBe("UNAUTHORIZED");
      expect(answer.error?.message).toMatch(/does not hold the key of the workbench session/);
    }
    expect((await fetch(`${s.url}/api/metrics`, { headers: cookieOnly })).status).toBe(401);
    // The page itself (its shell, no data) opens with the cookie: a navigation cannot carry a header.
    expect((await fetch(`${s.url}/admin`, { headers: cookieOnly, redirect: "manual" })).status).toBe(200);
    expect((await callTrpc(s.url, "clock.show", { headers: signedIn.credentials! })).status).toBe(200);
  });

  it("picks the cookie whose key the page holds when another port of the host set a second one", async () => {
    const viewer = await member("tossed", "viewer");
    // An attacker's page on another port of this host sets its own session cookie (a viewer's) under
    // a longer path, so the browser sends it first; the admin's page still holds the admin's key.
    const both = { cookie: `${viewer.cookie}; ${admin.cookie}`, [SESSION_KEY_HEADER]: admin[SESSION_KEY_HEADER]! };
    const me = await callTrpc(s.url, "access.me", { headers: both });
    expect((me.data as { caller: { name: string } }).caller.name).toBe("admin");
    // The tossed cookie alone, with the admin's key: refused, never run as the viewer.
    const tossed = await callTrpc(s.url, "access.me", {
      headers: { cookie: viewer.cookie!, [SESSION_KEY_HEADER]: admin[SESSION_KEY_HEADER]! },
    });
    expect(tossed.error?.code).toBe("UNAUTHORIZED");
  });

  it("refuses the CLI's confirm form posted with the cookie alone", async () => {
    const link = makeCliLink();
    const cookieOnly = { cookie: admin.cookie! };
    const { answer } = await answerCliLink(s.url, link.path, cookieOnly, "authorize");
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/auth\/sign-in\?next=/);
    const signed = await answerCliLink(s.url, makeCliLink().path, admin, "authorize");
    expect(signed.answer.headers.get("location")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
  });

  it("answers an unsigned tRPC call UNAUTHORIZED in tRPC's error shape; /api/health stays open", async () => {
    const answer = await callTrpc(s.url, "clock.show");
    expect(answer.status).toBe(401);
    expect(answer.error).toMatchObject({ code: "UNAUTHORIZED", httpStatus: 401 });
    expect(answer.error!.message).toMatch(/WORKBENCH_TOKEN/);
    expect((await callTrpc(s.url, "system.resetSeed", { mutation: true })).error?.code).toBe("UNAUTHORIZED");
    expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${s.url}/api/conformance/runs/x/report`)).status).toBe(401);
  });

  it("refuses a wrong member password on the form, and never signs a dispatcher in to the dashboard", async () => {
    expect((await signInToDashboard(s.url, "admin", "not-the-password")).status).toBe(401);
    expect((await signInToDashboard(s.url, "dispatcher.north", "workbench")).status).toBe(401);
  });

  it("lets each role do what it may and answers FORBIDDEN, naming the role, for the rest", async () => {
    const viewer = await member("vera", "viewer");
    const integrator = await member("ivan", "integrator");
    // viewer: read-only
    expect((await callTrpc(s.url, "clock.show", { headers: viewer })).status).toBe(200);
    expect((await callTrpc(s.url, "incidents.list", { input: {}, headers: viewer })).status).toBe(200);
    const raise = await callTrpc(s.url, "simulator.raise", {
      mutation: true,
      input: { origin: "MobileApp" },
      headers: viewer,
    });
    expect(raise.error).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    expect(raise.error!.message).toBe("This needs the integrator role; vera has the viewer role.");
    expect((await callTrpc(s.url, "system.resetSeed", { mutation: true, headers: viewer })).error?.code).toBe(
      "FORBIDDEN",
    );
    // integrator: drives tests, configures nothing
    expect(
      (
        await callTrpc(s.url, "simulator.raise", {
          mutation: true,
          input: { origin: "MobileApp" },
          headers: integrator,
        })
      ).status,
    ).toBe(200);
    const advance = await callTrpc(s.url, "clock.advance", {
      mutation: true,
      input: { byMs: 1000 },
      headers: integrator,
    });
    expect(advance.error?.message).toBe("This needs the admin role; ivan has the integrator role.");
    expect(
      (await callTrpc(s.url, "identity.clients.create", { mutation: true, input: {}, headers: integrator })).error
        ?.code,
    ).toBe("FORBIDDEN");
    expect((await callTrpc(s.url, "access.members.list", { headers: integrator })).error?.code).toBe("FORBIDDEN");
    // admin: everything
    expect(
      (await callTrpc(s.url, "clock.advance", { mutation: true, input: { byMs: 1000 }, headers: admin })).status,
    ).toBe(200);
    expect((await callTrpc(s.url, "clock.reset", { mutation: true, headers: admin })).status).toBe(200);
    const me = await callTrpc(s.url, "access.me", { headers: viewer });
    expect(me.data).toEqual({
      mode: "shared",
      devCredentials: "refused",
      caller: { kind: "member", name: "vera", role: "viewer" },
    });
  });

  it("ends a session at sign-out and when the member is disabled", async () => {
    const signedIn = await signInToDashboard(s.url, "admin", ADMIN_PASSWORD);
    const out = await fetch(`${s.url}/auth/sign-out`, {
      method: "POST",
      headers: { ...signedIn.credentials!, origin: s.url },
    });
    expect(out.status).toBe(200);
    expect((await callTrpc(s.url, "clock.show", { headers: signedIn.credentials! })).error?.code).toBe("UNAUTHORIZED");

    const dora = await member("dora", "viewer");
    const list = (await callTrpc(s.url, "access.members.list", { headers: admin })).data as Array<{
      id: string;
      username: string;
    }>;
    const id = list.find((m) => m.username === "dora")!.id;
    expect(
      (
        await callTrpc(s.url, "access.members.update", {
          mutation: true,
          input: { id, disabled: true },
          headers: admin,
        })
      ).status,
    ).toBe(200);
    expect((await callTrpc(s.url, "clock.show", { headers: dora })).error?.code).toBe("UNAUTHORIZED");
    expect((await signInToDashboard(s.url, "dora", "dora-password-1")).status).toBe(401);
  });

  it("accepts API tokens as Bearer tokens with their role; wrong and revoked tokens are UNAUTHORIZED", async () => {
    const created = await callTrpc(s.url, "access.apiTokens.create", {
      mutation: true,
      input: { name: "ci", role: "viewer" },
      headers: admin,
    });
    const { token, id } = created.data as { token: string; id: string };
    expect(token).toMatch(/^wbt_/);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await callTrpc(s.url, "clock.show", { headers: bearer })).status).toBe(200);
    expect((await callTrpc(s.url, "clock.reset", { mutation: true, headers: bearer })).error?.code).toBe("FORBIDDEN");
    const wrong = await callTrpc(s.url, "clock.show", { headers: { authorization: "Bearer wbt_not-a-token" } });
    expect(wrong.error?.code).toBe("UNAUTHORIZED");
    expect(wrong.error?.message).toMatch(/API token was refused/);
    expect(await s.runtime.db.workbenchApiToken.count({ where: { tokenHash: token } })).toBe(0); // stored hashed
    expect(
      (await callTrpc(s.url, "access.apiTokens.revoke", { mutation: true, input: { id }, headers: admin })).status,
    ).toBe(200);
    expect((await callTrpc(s.url, "clock.show", { headers: bearer })).error?.code).toBe("UNAUTHORIZED");
    expect(s.logs.text).not.toContain(token);
    expect(s.logs.text).not.toContain(ADMIN_PASSWORD);
  });

  it("keeps the protocol surfaces on the spec's own authentication: no workbench session is asked for", async () => {
    expect((await fetch(`${s.url}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await fetch(`${s.url}/.well-known/jwks.json`)).status).toBe(200);
    const close = `${s.url}/v1/incidents/00000000-0000-4000-8000-000000000000/close`;
    const unsigned = await fetch(close, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get("content-type")).toMatch(/problem\+json/);
    // An admin rotates the seeded secret; the partner's new secret then works on /connect/token and /v1 without any workbench session.
    const rotated = await callTrpc(s.url, "identity.clients.rotateSecret", {
      mutation: true,
      input: { clientId: "partner-cad" },
      headers: admin,
    });
    const { clientSecret } = rotated.data as { clientSecret: string };
    const token = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: clientSecret,
        scope: "incident.close",
        agency_context: "0b0c5b52-1c0e-4a57-9a57-000000000001",
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const signed = await fetch(close, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
      body: "{}",
    });
    expect([403, 404]).toContain(signed.status); // the spec's own answer for this token, never a workbench sign-in
    expect(signed.status).not.toBe(401);
    expect(signed.headers.get("content-type")).toMatch(/problem\+json/);
  });

  it("refuses the seeded client secrets and the dev portal password, saying why", async () => {
    // partner-readonly: partner-cad's secret is rotated by the test above.
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-readonly",
        client_secret: "partner-readonly-secret",
        scope: "agency.read",
      }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_client");
    expect(body.error_description).toMatch(
      /Seeded client secrets are disabled on a shared workbench.*Rotate.*ALLOW_DEV_CREDENTIALS=true/,
    );
    const portal = await portalPasswordLogin(s.url);
    expect(portal.status).toBe(401);
    expect(portal.text).toContain("The development password is disabled on a shared workbench");
    expect(portal.text).not.toContain("<code>workbench</code>");
  });
});

/** The portal's dev login form with the seeded dispatcher and the dev password. */
async function portalPasswordLogin(url: string) {
  const body = new URLSearchParams({
    client_id: "portal-spa",
    redirect_uri: `${url}/portal/callback`,
    scope: "openid profile offline_access",
    state: "s",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    username: "dispatcher.north",
    password: "workbench",
  });
  const res = await fetch(`${url}/connect/authorize`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { origin: url },
  });
  return { status: res.status, text: await res.text() };
}

describe("the first admin of a shared workbench without configuration", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ dashboard: true, env: { HOST: "0.0.0.0" } });
  });
  afterAll(async () => {
    await s.close();
  });

  it("prints a one-time setup code to the terminal, never to the log, and spends it on first use", async () => {
    expect(s.runtime.env.ACCESS_MODE).toBe("shared");
    expect(s.firstAdmin).toBe("setup-credential");
    const code = /\n {4}(\S+)\n/.exec(s.terminal.join(""))![1]!;
    expect(s.logs.text).not.toContain(code);
    expect((await fetch(`${s.url}/auth/setup`)).status).toBe(200);
    const post = (fields: Record<string, string>) =>
      fetch(`${s.url}/auth/setup`, { method: "POST", headers: { origin: s.url }, body: new URLSearchParams(fields) });
    expect((await post({ code: "wrong", username: "root", password: "long-enough-password" })).status).toBe(401);
    expect((await post({ code, username: "root", password: "short" })).status).toBe(400); // not spent by a typo
    expect((await post({ code, username: "root", password: "long-enough-password" })).status).toBe(201);
    expect((await post({ code, username: "root2", password: "long-enough-password" })).status).toBe(409);
    expect(consumeSetupCredential(code)).toBe(false);
    expect((await signInToDashboard(s.url, "root", "long-enough-password")).status).toBe(200);
    expect((await fetch(`${s.url}/auth/setup`)).status).toBe(404);
  });
});

describe("credentials on a shared workbench whose operator opted in (ALLOW_DEV_CREDENTIALS=true)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      dashboard: true,
      env: { WORKBENCH_ACCESS: "shared", ALLOW_DEV_CREDENTIALS: "true", WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it("accepts the seeded secrets and the dev password; the mode says so", async () => {
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: "partner-cad-secret",
        scope: "agency.read",
      }),
    });
    expect(res.status).toBe(200);
    expect((await portalPasswordLogin(s.url)).status).toBe(302);
    const admin = (await signInToDashboard(s.url, "admin", ADMIN_PASSWORD)).credentials!;
    expect(
      ((await callTrpc(s.url, "access.me", { headers: admin })).data as { devCredentials: string }).devCredentials,
    ).toBe("allowed");
  });
});

describe("a local workbench (loopback, the default)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ dashboard: true });
  });
  afterAll(async () => {
    await s.close();
  });

  it("needs no sign-in: pages and every procedure answer, the caller acting as admin", async () => {
    expect(s.runtime.env.ACCESS_MODE).toBe("local");
    expect((await fetch(`${s.url}/admin`, { redirect: "manual" })).status).toBe(200);
    expect((await callTrpc(s.url, "clock.advance", { mutation: true, input: { byMs: 1000 } })).status).toBe(200);
    expect((await callTrpc(s.url, "access.me")).data).toEqual({
      mode: "local",
      devCredentials: "allowed",
      caller: { kind: "local", name: "local", role: "admin" },
    });
    expect((await portalPasswordLogin(s.url)).status).toBe(302);
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: "partner-cad-secret",
        scope: "agency.read",
      }),
    });
    expect(res.status).toBe(200);
    expect(s.firstAdmin).toBe("local");
    expect(
      (await fetch(`${s.url}/auth/sign-in?next=/deliveries`, { redirect: "manual" })).headers.get("location"),
    ).toBe("/deliveries");
  });
});

describe("a shared workbench published on https", () => {
  let s: TestServer;
  // Reached here on loopback, which a shared workbench answers only when ALLOWED_HOSTS names it.
  beforeAll(async () => {
    s = await startTestServer({
      dashboard: true,
      env: {
        WORKBENCH_ACCESS: "shared",
        PUBLIC_URL: "https://workbench.example.org",
        WORKBENCH_ADMIN_PASSWORD: ADMIN_PASSWORD,
        ALLOWED_HOSTS: "127.0.0.1",
      },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it("marks the dashboard's cookies Secure and sends sign-in to the published identity server", async () => {
    const start = await fetch(`${s.url}/auth/sign-in`, { redirect: "manual" });
    expect(start.headers.get("set-cookie")).toMatch(/; Secure/i);
    expect(startData(await start.text()).to).toMatch(
      /^https:\/\/workbench\.example\.org\/connect\/authorize\?.*redirect_uri=https%3A%2F%2Fworkbench\.example\.org%2Fauth%2Fcallback/,
    );
  });

  it("names the session cookie __Host- (Secure, Path=/, no Domain): no subdomain can set it", async () => {
    expect(sessionCookieName(s.runtime.env.PUBLIC_URL)).toBe("__Host-wb_session");
    const session = await createWorkbenchSession({
      ...s.runtime,
      memberId: (await s.runtime.db.workbenchMember.findFirstOrThrow()).id,
    });
    const headers = { cookie: `__Host-wb_session=${session.id}`, [SESSION_KEY_HEADER]: session.key };
    expect((await callTrpc(s.url, "clock.show", { headers })).status).toBe(200);
    // The plain name means nothing on an https workbench: a page elsewhere could have set it.
    const plain = { cookie: `wb_session=${session.id}`, [SESSION_KEY_HEADER]: session.key };
    expect((await callTrpc(s.url, "clock.show", { headers: plain })).error?.code).toBe("UNAUTHORIZED");
  });
});
