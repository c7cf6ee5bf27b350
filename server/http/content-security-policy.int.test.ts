// The Content-Security-Policy over HTTP (docs/decisions/0056-roles-on-screen-and-a-strict-csp.md): a page
// request reaches Next with the same policy, and so the same nonce, that its response carries; every other
// response gets the policy without a nonce; the login form may send its redirect to the client's origin.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  // Next's stand-in answers with the policy its request arrived with, as Next would read it.
  s = await startTestServer({
    nextHandler: (req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end(String(req.headers["content-security-policy"]));
    },
  });
});
afterAll(async () => {
  await s.close();
});

const scriptSources = (policy: string | null) =>
  (policy ?? "")
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === "script-src")
    ?.slice(1);

describe("a page's policy", () => {
  it("is the one its request reaches Next with: a fresh nonce each time, never one the client sent", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${s.url}/deliveries`, {
        headers: { "content-security-policy": "script-src 'nonce-chosen'" },
      });
      const sent = res.headers.get("content-security-policy");
      expect(await res.text()).toBe(sent);
      const sources = scriptSources(sent)!;
      expect(sources[0]).toBe("'self'");
      expect(sources[1]).toMatch(/^'nonce-[A-Za-z0-9+/]{22}=='$/);
      expect(sources).not.toContain("'unsafe-inline'");
      // The test server runs as NODE_ENV=test, i.e. not built: next dev's eval is allowed there.
      expect(sources).toContain("'unsafe-eval'");
      nonces.add(sources[1]!);
    }
    expect(nonces.size).toBe(3);
  });

  it.each(["/api/trpc/clock.show", "/v1/agency/info", "/.well-known/openid-configuration", "/api/health"])(
    "on %s (not a page): own scripts only, no nonce, no eval",
    async (path) => {
      const res = await fetch(`${s.url}${path}`);
      expect(scriptSources(res.headers.get("content-security-policy"))).toEqual(["'self'"]);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    },
  );
});

describe("the login form's policy", () => {
  it("lets the form's redirect reach the client's registered origin, and scripts nothing", async () => {
    await s.runtime.db.client.update({
      where: { id: "portal-spa" },
      data: { redirectUris: { push: "https://partner.example/signed-in" } },
    });
    const query = new URLSearchParams({
      response_type: "code",
      client_id: "portal-spa",
      redirect_uri: "https://partner.example/signed-in",
      scope: "openid profile",
      state: "st",
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
    });
    const res = await fetch(`${s.url}/connect/authorize?${query}`);
    expect(res.status).toBe(200);
    const policy = res.headers.get("content-security-policy")!;
    expect(policy).toContain(`form-action 'self' ${s.url} https://partner.example;`);
    expect(scriptSources(policy)).toEqual(["'self'"]);
    expect(await res.text()).not.toContain("<script");
  });
});
