// Black-box: the protocol server over HTTP, and what its logs may contain.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPOSED_HANDLER } from "hono/utils/constants";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createProtocolApp } from "./protocol-app.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

describe("protocol server", () => {
  it("serves the discovery document from the start, with issuer = {auth_url} exactly", async () => {
    const res = await fetch(`${s.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, string>;
    expect(doc.issuer).toBe(s.url);
    expect(doc.jwks_uri).toBe(`${s.url}/.well-known/jwks.json`);
    const jwks = (await (await fetch(doc.jwks_uri!)).json()) as { keys: unknown[] };
    expect(Array.isArray(jwks.keys)).toBe(true);
  });

  it("runs every route's handlers as registered: no surface brings an error handler of its own", () => {
    // Hono wraps each handler of a sub-app that has its own onError in a composition made per request.
    const routes = createProtocolApp(s.runtime).routes;
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => COMPOSED_HANDLER in r.handler).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("answers /v1 failures as problem+json from the protocol app's one error handler", async () => {
    const res = await fetch(`${s.url}/v1/calls`, { method: "POST", body: "{" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ code: "AuthenticationRequired", traceId: expect.any(String) });
  });

  it("answers unknown protocol paths with a JSON 404", async () => {
    const res = await fetch(`${s.url}/v1/nothing-here`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/json/);
  });

  it("logs a token request and a sign-in redirect without any secret or token", async () => {
    const secret = "partner-cad-secret";
    const signinToken = "Zm9vYmFy%3D%3D";
    await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: "Basic cGFydG5lci1jYWQ6cGFydG5lci1jYWQtc2VjcmV0",
      },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: secret,
        scope: "agency.read",
      }),
    });
    await fetch(`${s.url}/Account/LoginUserByToken?token=${signinToken}&returnUrl=%2Fportal`, { redirect: "manual" });
    const lines = s.logs.records().filter((r) => r.msg === "request");
    expect(lines.map((r) => r.path)).toEqual(expect.arrayContaining(["/connect/token", "/Account/LoginUserByToken"]));
    for (const needle of [secret, signinToken, "Zm9vYmFy", "cGFydG5lci1jYWQ", "returnUrl"])
      expect(s.logs.text).not.toContain(needle);
  });
});
