// No way around the shared-mode gate by spelling a path (SECURITY.md, "Every request"): every
// spelling of a dot segment, an encoded slash, a backslash, doubled slashes and `;` parameters,
// on every prefix that is open without a session, sent byte for byte over a raw socket, is
// refused with 400 before the gate, Hono or Next reads it; the canonical paths still behave.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawHttpRequest } from "../testing/raw-http.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    dashboard: true,
    env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: "canonical-path-admin-1" },
  });
});
afterAll(async () => {
  await s.close();
});

/** Every prefix a caller without a session may reach, and how many segments deep it is. */
const OPEN_PREFIXES: Array<[string, number]> = [
  ["/", 0],
  ["/portal/", 1],
  ["/portal/incidents/", 2],
  ["/_next/static/", 2],
  ["/_next/static/chunks/", 3],
  ["/auth/", 1],
  ["/connect/", 1],
  ["/.well-known/", 1],
  ["/Account/", 1],
  ["/v1/", 1],
  ["/receivers/north-psap/", 2],
  ["/api/trpc/", 2],
  ["/api/health/", 2],
];

/** Ways to say "up one segment", each with the separator that follows it. */
const UP = ["../", "%2e%2e/", "%2E%2E/", ".%2e/", "%2e./", "..%2f", "..%2F", "..%5c", "..\\", "..;/", ".//", "..//"];

/** What a session guards: pages, the conformance report (HTML and download), the documents. */
const GUARDED = [
  "admin",
  "api/conformance/runs/00000000-0000-4000-8000-000000000001/report",
  "api/conformance/runs/00000000-0000-4000-8000-000000000001/report?download=1",
  "api-docs",
  "docs",
  "api/docs/webhooks/asyncapi.json",
  "api/docs/webhooks/legacy-schemas.json",
  "ui-kit",
];

describe("a path spelled around the gate", () => {
  it("is refused with 400 on every open prefix, for every spelling, before anything serves it", async () => {
    const answers: string[] = [];
    for (const [prefix, depth] of OPEN_PREFIXES)
      for (const up of UP)
        for (const target of GUARDED) {
          const path = `${prefix}${up.repeat(Math.max(depth, 1))}${target}`;
          const res = await rawHttpRequest(s.url, path);
          if (res.status !== 400 || res.body.includes("dashboard page")) answers.push(`${res.status} ${path}`);
        }
    expect(answers).toEqual([]);
  });

  it.each([
    ["/portal;/../admin"],
    ["/portal/./admin"],
    ["/portal//admin"],
    ["//admin"],
    ["/portal/%2e%2e%2fadmin"],
    ["/receivers/north%00psap/health"],
  ])("refuses %s too", async (path) => {
    const res = await rawHttpRequest(s.url, path);
    expect(res.status).toBe(400);
  });

  it("answers each surface in its own format", async () => {
    const v1 = await rawHttpRequest(s.url, "/v1/incidents/%2e%2e/incidents");
    expect(v1.status).toBe(400);
    expect(v1.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(v1.body)).toMatchObject({ code: "ValidationFailed", status: 400, errors: [{ field: "path" }] });

    const token = await rawHttpRequest(s.url, "/connect/%2e/token", { method: "POST" });
    expect(token.status).toBe(400);
    expect(JSON.parse(token.body)).toMatchObject({ error: "invalid_request" });

    const trpc = await rawHttpRequest(s.url, "/api/trpc/./clock.show");
    expect(trpc.status).toBe(400);
    expect(JSON.parse(trpc.body)).toMatchObject({
      error: { json: { data: { code: "BAD_REQUEST", httpStatus: 400 } } },
    });

    const page = await rawHttpRequest(s.url, "/portal/../admin");
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
    expect(page.body).toMatch(/dot segments/);
  });
});

describe("canonical paths", () => {
  it("still reach the gate: a page without a session goes to sign-in, the portal and static files are open", async () => {
    const admin = await rawHttpRequest(s.url, "/admin");
    expect(admin.status).toBe(302);
    expect(admin.headers.location).toMatch(/^\/auth\/sign-in\?next=%2Fadmin/);
    const report = await rawHttpRequest(s.url, "/api/conformance/runs/00000000-0000-4000-8000-000000000001/report");
    expect(report.status).toBe(401);
    expect((await rawHttpRequest(s.url, "/portal/incidents")).body).toContain("dashboard page /portal/incidents");
    expect((await rawHttpRequest(s.url, "/_next/static/x.js")).body).toContain("dashboard page /_next/static/x.js");
    expect((await rawHttpRequest(s.url, "/api/health")).status).toBe(200);
  });
});
