// Black-box: authorization_code with mandatory PKCE (S256), refresh_token rotation
// with reuse detection, key rotation, discovery, and what the logs may contain.
import { createHash, randomBytes } from "node:crypto";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { accessToken, CAD, claimsOf, NORTH, postToken } from "./token-test-helpers.ts";

let s: TestServer;
let redirectUri: string;
beforeAll(async () => {
  s = await startTestServer();
  // The seed registers the path /portal/callback: it resolves against this server's {portal_url}.
  redirectUri = `${s.url}/portal/callback`;
});
afterAll(async () => {
  await s.close();
});

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

function authorizeUrl(params: Record<string, string | undefined>) {
  const all = {
    response_type: "code",
    client_id: "portal-spa",
    redirect_uri: redirectUri,
    scope: "openid profile offline_access",
    state: "st-1",
    ...params,
  };
  const q = new URLSearchParams(Object.entries(all).filter((e): e is [string, string] => e[1] !== undefined));
  return `${s.url}/connect/authorize?${q}`;
}

/** Signs in through the login form and returns the code and the session cookie. */
async function signInForCode(challenge: string, username = "dispatcher.north", password = "workbench") {
  const form = await fetch(authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256" }));
  expect(form.status).toBe(200);
  expect(await form.text()).toContain('name="password"');
  const body = new URLSearchParams({
    client_id: "portal-spa",
    redirect_uri: redirectUri,
    scope: "openid profile offline_access",
    state: "st-1",
    code_challenge: challenge,
    code_challenge_method: "S256",
    username,
    password,
  });
  const res = await fetch(`${s.url}/connect/authorize`, { method: "POST", body, redirect: "manual" });
  if (res.status !== 302) return { status: res.status };
  const location = new URL(res.headers.get("location")!);
  return {
    status: 302,
    location,
    code: location.searchParams.get("code")!,
    cookie: res.headers.get("set-cookie")!.split(";")[0]!,
  };
}

const redeem = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  postToken(s.url, {
    grant_type: "authorization_code",
    client_id: "portal-spa",
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    ...extra,
  });

describe("authorization_code + PKCE", () => {
  it("login form → code → tokens (sub = user, refresh token); the code is single-use", async () => {
    const { verifier, challenge } = pkce();
    const signed = await signInForCode(challenge);
    expect(signed.location!.origin + signed.location!.pathname).toBe(redirectUri);
    expect(signed.location!.searchParams.get("state")).toBe("st-1");
    const r = await redeem(signed.code!, verifier);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ token_type: "Bearer", scope: "openid profile offline_access" });
    expect(typeof r.body.refresh_token).toBe("string");
    expect(claimsOf(r.body.access_token as string).claims).toMatchObject({
      sub: "0b0c5b52-1c0e-4a57-9a57-100000000001",
      client_id: "portal-spa",
      username: "dispatcher.north",
    });
    expect((await redeem(signed.code!, verifier)).body.error).toBe("invalid_grant");
    // The replayed code revoked the refresh token its first redemption issued.
    const refreshed = await postToken(s.url, {
      grant_type: "refresh_token",
      client_id: "portal-spa",
      refresh_token: r.body.refresh_token as string,
    });
    expect(refreshed.body.error).toBe("invalid_grant");
  });

  it("a browser with a portal session gets its code without the form", async () => {
    const first = await signInForCode(pkce().challenge);
    const res = await fetch(authorizeUrl({ code_challenge: pkce().challenge, code_challenge_method: "S256" }), {
      headers: { cookie: first.cookie! },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });

  it("PKCE is mandatory and S256 only: plain, missing and malformed challenges are refused", async () => {
    const { challenge } = pkce();
    for (const params of [
      {},
      { code_challenge: challenge },
      { code_challenge: challenge, code_challenge_method: "plain" },
      { code_challenge: "short", code_challenge_method: "S256" },
    ]) {
      const res = await fetch(authorizeUrl(params), { redirect: "manual" });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location")!);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("code")).toBeNull();
    }
  });

  it("a wrong code_verifier, redirect_uri or missing verifier is refused", async () => {
    const { verifier, challenge } = pkce();
    expect((await redeem((await signInForCode(challenge)).code!, pkce().verifier)).body.error).toBe("invalid_grant");
    expect(
      (await redeem((await signInForCode(challenge)).code!, verifier, { redirect_uri: `${s.url}/elsewhere` })).body
        .error,
    ).toBe("invalid_grant");
    const noVerifier = await postToken(s.url, {
      grant_type: "authorization_code",
      client_id: "portal-spa",
      code: (await signInForCode(challenge)).code!,
      redirect_uri: redirectUri,
    });
    expect(noVerifier.body.error).toBe("invalid_request");
  });

  it("unknown clients and unregistered redirect_uris are refused on the page, never redirected", async () => {
    const { challenge } = pkce();
    for (const params of [
      { client_id: "nobody" },
      { client_id: "partner-cad" },
      { redirect_uri: "https://evil.example/cb" },
    ]) {
      const res = await fetch(authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256", ...params }), {
        redirect: "manual",
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
    }
  });

  it("a cross-site form post of the login form is refused (login CSRF)", async () => {
    const body = new URLSearchParams({
      client_id: "portal-spa",
      redirect_uri: redirectUri,
      state: "s",
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      username: "dispatcher.north",
      password: "workbench",
    });
    const res = await fetch(`${s.url}/connect/authorize`, {
      method: "POST",
      body,
      headers: { origin: "https://evil.example" },
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    const same = await fetch(`${s.url}/connect/authorize`, {
      method: "POST",
      body,
      headers: { origin: s.url },
      redirect: "manual",
    });
    expect(same.status).toBe(302);
  });

  it("a wrong password or a user who may not sign in gets the form again (401)", async () => {
    expect((await signInForCode(pkce().challenge, "dispatcher.north", "nope")).status).toBe(401);
    expect((await signInForCode(pkce().challenge, "locked.user")).status).toBe(401);
  });
});

describe("refresh_token rotation", () => {
  it("each use returns a new refresh token; reusing a spent one revokes the whole family", async () => {
    const { verifier, challenge } = pkce();
    const first = await redeem((await signInForCode(challenge)).code!, verifier);
    const rt1 = first.body.refresh_token as string;
    const second = await postToken(s.url, { grant_type: "refresh_token", client_id: "portal-spa", refresh_token: rt1 });
    expect(second.status).toBe(200);
    const rt2 = second.body.refresh_token as string;
    expect(rt2).not.toBe(rt1);
    // Reuse of rt1: refused, and rt2 (same family) dies with it.
    const reuse = await postToken(s.url, { grant_type: "refresh_token", client_id: "portal-spa", refresh_token: rt1 });
    expect(reuse).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const afterRevocation = await postToken(s.url, {
      grant_type: "refresh_token",
      client_id: "portal-spa",
      refresh_token: rt2,
    });
    expect(afterRevocation.body.error).toBe("invalid_grant");
  });

  it("refresh_token is refused for confidential client_credentials clients and unknown tokens", async () => {
    expect((await postToken(s.url, { grant_type: "refresh_token", ...CAD, refresh_token: "x" })).body.error).toBe(
      "invalid_client",
    );
    expect(
      (await postToken(s.url, { grant_type: "refresh_token", client_id: "portal-spa", refresh_token: "nope" })).body
        .error,
    ).toBe("invalid_grant");
  });
});

describe("discovery and key rotation", () => {
  it("discovery names the endpoints, grants and S256", async () => {
    const doc = (await (await fetch(`${s.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: s.url,
      token_endpoint: `${s.url}/connect/token`,
      authorization_endpoint: `${s.url}/connect/authorize`,
      jwks_uri: `${s.url}/.well-known/jwks.json`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: expect.arrayContaining(["client_credentials", "authorization_code", "refresh_token"]),
    });
  });

  it("a token signed before a rotation still verifies against the published JWKS; new tokens use the new kid", async () => {
    const before = await accessToken(s.url, { scope: "agency.read", agency_context: NORTH });
    const rotated = await s.runtime.keys.rotate();
    const after = await accessToken(s.url, { scope: "agency.read" });
    expect(claimsOf(after).header.kid).toBe(rotated.kid);
    expect(claimsOf(before).header.kid).toBe(rotated.previousKid);
    const jwks = createRemoteJWKSet(new URL(`${s.url}/.well-known/jwks.json`));
    const opts = { issuer: s.url, typ: "at+jwt", currentDate: s.runtime.clock.now() };
    await expect(jwtVerify(before, jwks, opts)).resolves.toBeTruthy();
    await expect(jwtVerify(after, jwks, opts)).resolves.toBeTruthy();
  });
});

describe("logs", () => {
  it("no secret, token, sign-in token, cookie or redirect URL reaches the logs", async () => {
    const bearer = await accessToken(s.url, { scope: "identity.user.signin" });
    const res = await fetch(`${s.url}/Account/GetUserSigninToken`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ agencyContext: NORTH, username: "dispatcher.north" }),
    });
    const { token } = (await res.json()) as { token: string };
    const returnUrl = `${s.url}/portal?secret-return-marker=1`;
    const login = await fetch(
      `${s.url}/Account/LoginUserByToken?token=${token}&returnUrl=${encodeURIComponent(returnUrl)}`,
      { redirect: "manual" },
    );
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!;
    const { verifier, challenge } = pkce();
    const signed = await signInForCode(challenge);
    const tokens = await redeem(signed.code!, verifier);
    await postToken(s.url, {
      grant_type: "client_credentials",
      client_id: "partner-cad",
      client_secret: "partner-cad-secret-wrong",
      scope: "agency.read",
    });
    // An unexpected failure logs its error, still without the URL.
    const original = s.runtime.db.signinToken.updateMany;
    s.runtime.db.signinToken.updateMany = (() => Promise.reject(new Error("boom"))) as never;
    await fetch(`${s.url}/Account/LoginUserByToken?token=${token}&returnUrl=${encodeURIComponent(returnUrl)}`, {
      redirect: "manual",
    });
    s.runtime.db.signinToken.updateMany = original;

    expect(s.logs.records().some((r) => r.path === "/Account/LoginUserByToken")).toBe(true);
    const needles = [
      "partner-cad-secret",
      bearer,
      token,
      decodeURIComponent(token),
      "secret-return-marker",
      cookie,
      signed.code!,
      verifier,
      tokens.body.access_token as string,
      tokens.body.refresh_token as string,
    ];
    for (const needle of needles) expect(s.logs.text).not.toContain(needle);
  });
});
