// Authenticated and secret-bearing answers are never kept by a browser or a proxy (SECURITY.md,
// "Caching"): every one of them says `Cache-Control: no-store`, on every surface, while the public
// documents meant to be cached keep their own rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createApiToken } from "../workbench/access/api-tokens.ts";
import { accessToken, NORTH } from "./identity/token-test-helpers.ts";

let s: TestServer;
let admin: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer({
    dashboard: true,
    env: { WORKBENCH_ACCESS: "shared", ALLOW_DEV_CREDENTIALS: "true", WORKBENCH_ADMIN_PASSWORD: "cache-admin-123" },
  });
  const token = await createApiToken({ ...s.runtime, input: { name: "cache", role: "admin" }, createdBy: "test" });
  admin = { authorization: `Bearer ${token.token}` };
});
afterAll(async () => {
  await s.close();
});

const trpcGet = (path: string, input?: unknown) =>
  `/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`;

describe("Cache-Control", () => {
  it("is no-store on every authenticated tRPC answer (tokens, clients, members, keys, exports, deliveries)", async () => {
    for (const path of [
      trpcGet("access.apiTokens.list"),
      trpcGet("access.members.list"),
      trpcGet("identity.clients.list"),
      trpcGet("identity.keys.list"),
      trpcGet("deliveries.list", {}),
      trpcGet("access.me"),
    ]) {
      const res = await fetch(`${s.url}${path}`, { headers: admin });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
    const unknown = trpcGet("deliveries.export", { incidentId: "00000000-0000-4000-8000-000000000009" });
    const exported = await fetch(`${s.url}${unknown}`, { headers: admin });
    expect(exported.status).toBe(404);
    expect(exported.headers.get("cache-control")).toBe("no-store");
  });

  it("is no-store on refusals and on the metrics", async () => {
    for (const [path, headers] of [
      [trpcGet("access.apiTokens.list"), {}],
      ["/api/metrics", admin],
      ["/api/metrics", {}],
    ] as const) {
      const res = await fetch(`${s.url}${path}`, { headers });
      expect(res.headers.get("cache-control"), path).toBe("no-store");
    }
  });

  it("is no-store on the protocol surfaces' answers: tokens, /v1, sign-in tokens", async () => {
    const signin = await accessToken(s.url, { scope: "identity.user.signin" });
    const token = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: "partner-cad-secret",
        agency_context: NORTH,
        scope: "agency.read",
      }),
    });
    expect(token.headers.get("cache-control")).toBe("no-store");
    const bearer = ((await token.json()) as { access_token: string }).access_token;
    const info = await fetch(`${s.url}/v1/agency/info`, { headers: { authorization: `Bearer ${bearer}` } });
    expect(info.status).toBe(200);
    expect(info.headers.get("cache-control")).toBe("no-store");
    const code = await fetch(`${s.url}/Account/GetUserSigninToken`, {
      method: "POST",
      headers: { authorization: `Bearer ${signin}`, "content-type": "application/json" },
      body: JSON.stringify({ agencyContext: NORTH, username: "dispatcher.north" }),
    });
    expect(code.status).toBe(200);
    expect(code.headers.get("cache-control")).toBe("no-store");
    const health = await fetch(`${s.url}/receivers/north-psap/health`);
    expect(health.headers.get("cache-control")).toBe("no-store");
  });

  it("leaves the public documents meant to be cached to their own rule", async () => {
    for (const path of ["/.well-known/openid-configuration", "/.well-known/jwks.json"]) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.headers.get("cache-control"), path).toBe("public, max-age=60");
    }
  });
});
