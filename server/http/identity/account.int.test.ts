// Black-box: POST /Account/GetUserSigninToken (every status/code of its table) and
// GET /Account/LoginUserByToken (rules 1-6), plus sign-out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintAccessToken } from "../../identity/access-token.ts";
import { ManualClock } from "../../platform/clock/clock.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { accessToken, EMS, NORTH, SOUTH } from "./token-test-helpers.ts";

let s: TestServer;
let signinBearer: string;
beforeAll(async () => {
  s = await startTestServer();
  signinBearer = await accessToken(s.url, { scope: "identity.user.signin" });
});
afterAll(async () => {
  await s.close();
});

async function getSigninToken(
  body: unknown,
  options: { bearer?: string | null; contentType?: string; raw?: string } = {},
) {
  const headers: Record<string, string> = { "content-type": options.contentType ?? "application/json" };
  const bearer = options.bearer === undefined ? signinBearer : options.bearer;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${s.url}/Account/GetUserSigninToken`, {
    method: "POST",
    headers,
    body: options.raw ?? JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    body: (await res.json()) as Record<string, unknown>,
  };
}

async function login(query: string, cookie?: string) {
  const res = await fetch(`${s.url}/Account/LoginUserByToken?${query}`, {
    redirect: "manual",
    headers: cookie ? { cookie } : {},
  });
  return { status: res.status, location: res.headers.get("location"), setCookie: res.headers.get("set-cookie") };
}

const sessionCookie = (setCookie: string | null) => setCookie!.split(";")[0]!;

async function freshToken(username = "dispatcher.north", agencyContext = NORTH) {
  const r = await getSigninToken({ agencyContext, username });
  expect(r.status).toBe(200);
  return r.body.token as string;
}

describe("GetUserSigninToken", () => {
  it("200: an opaque, already URL-encoded token valid 15 minutes on the workbench clock", async () => {
    const r = await getSigninToken({ agencyContext: NORTH, username: "Dispatcher.North" });
    expect(r.status).toBe(200);
    const token = r.body.token as string;
    expect(token).toMatch(/%3D$/);
    expect(token).toMatch(/^[A-Za-z0-9%]+$/);
    expect(encodeURIComponent(decodeURIComponent(token))).toBe(token);
    expect(Date.parse(r.body.expiresAtUtc as string) - s.runtime.clock.nowMs()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(r.body.expiresAtUtc as string) - s.runtime.clock.nowMs()).toBeLessThanOrEqual(15 * 60_000);
    expect(r.body.expiresAtUtc).toMatch(/Z$/);
    // Only a hash is stored.
    const rows = await s.runtime.db.signinToken.findMany();
    for (const row of rows) expect([token, decodeURIComponent(token)]).not.toContain(row.tokenHash);
  });

  it.each([
    ["agency ID empty", { agencyContext: "", username: "dispatcher.north" }, 400, "ValidationFailed"],
    ["agency ID invalid", { agencyContext: "north", username: "dispatcher.north" }, 400, "ValidationFailed"],
    ["username missing", { agencyContext: NORTH }, 400, "ValidationFailed"],
    ["username blank", { agencyContext: NORTH, username: "  " }, 400, "ValidationFailed"],
    ["ambiguous name", { agencyContext: NORTH, username: "j.smith" }, 400, "UsernameAmbiguous"],
    [
      "agency not allowed for the client",
      { agencyContext: SOUTH, username: "dispatcher.north" },
      403,
      "ClientNotAllowed",
    ],
    ["user of another agency", { agencyContext: EMS, username: "dispatcher.north" }, 403, "ClientNotAllowed"],
    ["user not allowed to sign in", { agencyContext: NORTH, username: "locked.user" }, 403, "ClientNotAllowed"],
    ["unknown user", { agencyContext: NORTH, username: "nobody" }, 404, "UserNotFound"],
  ])("%s → %i %s", async (_name, body, status, code) => {
    const r = await getSigninToken(body);
    expect(r.status).toBe(status);
    expect(r.type).toMatch(/^application\/problem\+json/);
    expect(r.body).toMatchObject({ status, code, instance: "/Account/GetUserSigninToken" });
    expect(typeof r.body.traceId).toBe("string");
    if (code === "ValidationFailed") expect(Array.isArray(r.body.errors)).toBe(true);
  });

  it("403 ClientNotAllowed: a user of the agency who is not assigned to the calling client", async () => {
    // A North PSAP dispatcher partner-cad (the bearer's client) is not assigned: the agency is allowed, the user is not.
    await s.runtime.db.user.create({
      data: {
        id: "0b0c5b52-1c0e-4a57-9a57-1000000000aa",
        username: "unassigned.north",
        name: "Una Assigned",
        email: "unassigned.north@example.test",
        role: "Dispatcher",
        agencyId: NORTH,
        canSignIn: true,
        createdAt: s.runtime.clock.now(),
      },
    });
    const r = await getSigninToken({ agencyContext: NORTH, username: "unassigned.north" });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: "ClientNotAllowed", detail: "The user is not assigned to this client." });
    // Assigned, the same request is answered with a token.
    await s.runtime.db.userClient.create({
      data: { userId: "0b0c5b52-1c0e-4a57-9a57-1000000000aa", clientId: "partner-cad" },
    });
    expect((await getSigninToken({ agencyContext: NORTH, username: "unassigned.north" })).status).toBe(200);
  });

  it("401 AuthenticationRequired: no bearer, a garbage one, an expired one", async () => {
    expect(
      (await getSigninToken({ agencyContext: NORTH, username: "dispatcher.north" }, { bearer: null })).body.code,
    ).toBe("AuthenticationRequired");
    const garbage = await getSigninToken(
      { agencyContext: NORTH, username: "dispatcher.north" },
      { bearer: "abc.def.ghi" },
    );
    expect(garbage.status).toBe(401);
    expect(garbage.body.code).toBe("AuthenticationRequired");
    // Expired: the same token but for its lifetime (minted two hours ago, one hour of validity);
    // minted now, it is accepted — so expiry alone is what refuses it.
    const mint = (clock: ManualClock | typeof s.runtime.clock) =>
      mintAccessToken({
        keys: s.runtime.keys,
        clock,
        issuer: s.runtime.env.AUTH_URL,
        subject: "partner-cad",
        clientId: "partner-cad",
        audience: `${s.runtime.env.AUTH_URL}/Account`,
        scope: ["identity.user.signin"],
        lifetimeS: 3600,
        claims: {},
      }).then((t) => t.accessToken);
    const expired = await getSigninToken(
      { agencyContext: NORTH, username: "dispatcher.north" },
      { bearer: await mint(new ManualClock(s.runtime.clock.nowMs() - 2 * 3600_000)) },
    );
    expect([expired.status, expired.body.code]).toEqual([401, "AuthenticationRequired"]);
    expect(
      (
        await getSigninToken(
          { agencyContext: NORTH, username: "dispatcher.north" },
          { bearer: await mint(s.runtime.clock) },
        )
      ).status,
    ).toBe(200);
  });

  it("403 AuthorizationDenied: a token for the Account API without identity.user.signin", async () => {
    // The token endpoint grants the Account audience only with that scope, so mint one directly.
    const { accessToken: withoutScope } = await mintAccessToken({
      keys: s.runtime.keys,
      clock: s.runtime.clock,
      issuer: s.runtime.env.AUTH_URL,
      subject: "partner-cad",
      clientId: "partner-cad",
      audience: `${s.runtime.env.AUTH_URL}/Account`,
      scope: ["agency.read"],
      lifetimeS: 3600,
      claims: {},
    });
    expect(
      (await getSigninToken({ agencyContext: NORTH, username: "dispatcher.north" }, { bearer: withoutScope })).body,
    ).toMatchObject({ status: 403, code: "AuthorizationDenied" });
  });

  it("401 AuthenticationRequired: a token without the Account API in aud (inbound only, or narrowed to /v1)", async () => {
    const inbound = await accessToken(s.url, { scope: "agency.read" });
    const narrowed = await accessToken(s.url, { scope: "agency.read identity.user.signin", resource: `${s.url}/v1` });
    for (const bearer of [inbound, narrowed])
      expect(
        (await getSigninToken({ agencyContext: NORTH, username: "dispatcher.north" }, { bearer })).body,
      ).toMatchObject({ status: 401, code: "AuthenticationRequired" });
  });

  it("415 UnsupportedMediaType for a non-JSON body; 400 for malformed JSON", async () => {
    const form = await getSigninToken(null, {
      contentType: "application/x-www-form-urlencoded",
      raw: `agencyContext=${NORTH}&username=dispatcher.north`,
    });
    expect(form).toMatchObject({ status: 415, body: { code: "UnsupportedMediaType" } });
    const broken = await getSigninToken(null, { raw: "{not json" });
    expect(broken).toMatchObject({ status: 400, body: { code: "ValidationFailed" } });
  });

  it("500 InternalServerError without a stack when the request cannot be completed", async () => {
    const original = s.runtime.db.clientAgency.findUnique;
    s.runtime.db.clientAgency.findUnique = (() => Promise.reject(new Error("database went away"))) as never;
    try {
      const r = await getSigninToken({ agencyContext: NORTH, username: "dispatcher.north" });
      expect(r).toMatchObject({ status: 500, body: { code: "InternalServerError" } });
      expect(JSON.stringify(r.body)).not.toContain("database went away");
    } finally {
      s.runtime.db.clientAgency.findUnique = original;
    }
  });

  it("the expired bearer of yesterday is refused (workbench clock)", async () => {
    const bearer = await accessToken(s.url, { scope: "identity.user.signin" });
    await s.withClockAhead(2 * 3600_000, async () =>
      expect((await getSigninToken({ agencyContext: NORTH, username: "dispatcher.north" }, { bearer })).status).toBe(
        401,
      ),
    );
  });
});

describe("LoginUserByToken rules 1-6", () => {
  it("1: a valid token creates a non-persistent HttpOnly SameSite=Lax session cookie and redirects to returnUrl", async () => {
    const token = await freshToken();
    const r = await login(`token=${token}&returnUrl=${encodeURIComponent("/portal?x=1")}`);
    expect(r.status).toBe(302);
    expect(r.location).toBe("/portal?x=1");
    expect(r.setCookie).toMatch(/^wb_portal_session=/);
    expect(r.setCookie).toMatch(/HttpOnly/i);
    expect(r.setCookie).toMatch(/SameSite=Lax/i);
    expect(r.setCookie).not.toMatch(/Expires|Max-Age/i);
    expect(r.setCookie).not.toMatch(/Secure/i); // http origin here; https origins get Secure (below)
    const me = await fetch(`${s.url}/Account/Session`, { headers: { cookie: sessionCookie(r.setCookie) } });
    expect(await me.json()).toMatchObject({ signedIn: true, username: "dispatcher.north" });
  });

  it("1: single use: the same token a second time creates no session", async () => {
    const token = await freshToken();
    expect((await login(`token=${token}&returnUrl=%2Fportal`)).setCookie).toBeTruthy();
    const again = await login(`token=${token}&returnUrl=%2Fportal`);
    expect(again).toMatchObject({ status: 302, location: "/portal", setCookie: null });
  });

  it("2: unknown, expired, double-encoded tokens and users who cannot sign in: redirect, no session", async () => {
    expect(await login("token=bm9wZQ%3D%3D&returnUrl=%2Fportal")).toMatchObject({
      status: 302,
      location: "/portal",
      setCookie: null,
    });
    expect(await login("returnUrl=%2Fportal")).toMatchObject({ status: 302, setCookie: null });

    const doubleEncoded = encodeURIComponent(await freshToken());
    expect(doubleEncoded).toContain("%253D");
    expect(await login(`token=${doubleEncoded}&returnUrl=%2Fportal`)).toMatchObject({ status: 302, setCookie: null });

    const expiring = await freshToken();
    await s.withClockAhead(15 * 60_000 + 1_000, async () =>
      expect(await login(`token=${expiring}&returnUrl=%2Fportal`)).toMatchObject({ status: 302, setCookie: null }),
    );

    const lockedLater = await freshToken("dispatcher.fire", "0b0c5b52-1c0e-4a57-9a57-000000000003");
    await s.runtime.db.user.update({
      where: { id: "0b0c5b52-1c0e-4a57-9a57-100000000003" },
      data: { canSignIn: false },
    });
    expect(await login(`token=${lockedLater}&returnUrl=%2Fportal`)).toMatchObject({ status: 302, setCookie: null });
  });

  it("answers Referrer-Policy: no-referrer whatever the token, so the redirect's target never sees it", async () => {
    // Passwordless sign-in 3: "do not log the redirect URL or put it in analytics or referrer data".
    const policy = async (query: string, cookie?: string) =>
      (
        await fetch(`${s.url}/Account/LoginUserByToken?${query}`, {
          redirect: "manual",
          headers: cookie ? { cookie } : {},
        })
      ).headers.get("referrer-policy");
    const signedIn = await login(`token=${await freshToken()}&returnUrl=%2Fportal`);
    expect(signedIn.status).toBe(302);
    expect(await policy(`token=${await freshToken()}&returnUrl=%2Fportal`)).toBe("no-referrer");
    expect(await policy("token=bm9wZQ%3D%3D&returnUrl=%2Fportal")).toBe("no-referrer");
    expect(await policy("returnUrl=https%3A%2F%2Fevil.example%2F")).toBe("no-referrer");
    expect(await policy(`token=${await freshToken()}`, sessionCookie(signedIn.setCookie))).toBe("no-referrer");
  });

  it("3: an existing session is left unchanged and the token is not applied", async () => {
    const first = await login(`token=${await freshToken()}&returnUrl=%2Fportal`);
    const cookie = sessionCookie(first.setCookie);
    const other = await freshToken("dispatcher.ems", EMS);
    const r = await login(`token=${other}&returnUrl=%2Fportal%2Fx`, cookie);
    expect(r).toMatchObject({ status: 302, location: "/portal/x", setCookie: null });
    const me = await fetch(`${s.url}/Account/Session`, { headers: { cookie } });
    expect(await me.json()).toMatchObject({ username: "dispatcher.north" });
    // Not applied: it still works in another browser.
    expect((await login(`token=${other}&returnUrl=%2F`)).setCookie).toBeTruthy();
  });

  it("4-5: a missing or rejected returnUrl redirects to /; configured origins are accepted", async () => {
    expect((await login(`token=${await freshToken()}`)).location).toBe("/");
    for (const hostile of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "https:evil.example",
    ]) {
      const r = await login(`token=${await freshToken()}&returnUrl=${encodeURIComponent(hostile)}`);
      expect(r).toMatchObject({ status: 302, location: "/" });
      expect(r.setCookie).toBeTruthy(); // the session is still created: only the target is refused
    }
    expect((await login(`token=x&returnUrl=${encodeURIComponent(`${s.url}/portal`)}`)).location).toBe(
      `${s.url}/portal`,
    );
  });

  it("always 302, even when the database fails", async () => {
    const original = s.runtime.db.signinToken.updateMany;
    s.runtime.db.signinToken.updateMany = (() => Promise.reject(new Error("boom"))) as never;
    try {
      expect(await login(`token=${await freshToken()}&returnUrl=%2Fportal`)).toMatchObject({
        status: 302,
        location: "/portal",
        setCookie: null,
      });
    } finally {
      s.runtime.db.signinToken.updateMany = original;
    }
  });

  it("sign-out ends the session", async () => {
    const cookie = sessionCookie((await login(`token=${await freshToken()}`)).setCookie);
    const out = await fetch(`${s.url}/Account/Logout`, { method: "POST", headers: { cookie }, redirect: "manual" });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/wb_portal_session=;/);
    expect(await (await fetch(`${s.url}/Account/Session`, { headers: { cookie } })).json()).toEqual({
      signedIn: false,
    });
  });
});

describe("on an https origin", () => {
  it("the session cookie is Secure", async () => {
    const https = await startTestServer({ env: { AUTH_URL: "https://auth.example.test" } });
    try {
      // The issuer is https://auth.example.test; mint through the HTTP endpoint with that iss.
      const bearer = await accessToken(https.url, {
        scope: "identity.user.signin",
        resource: "https://auth.example.test/Account",
      });
      const res = await fetch(`${https.url}/Account/GetUserSigninToken`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify({ agencyContext: NORTH, username: "dispatcher.north" }),
      });
      const { token } = (await res.json()) as { token: string };
      const r = await fetch(`${https.url}/Account/LoginUserByToken?token=${token}`, { redirect: "manual" });
      expect(r.headers.get("set-cookie")).toMatch(/; Secure/);
    } finally {
      await https.close();
    }
  });
});
