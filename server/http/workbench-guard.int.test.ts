// The request guard over HTTP (SECURITY.md, every request): Host, cross-site writes, the
// dashboard API's media type and bounds, and the security headers. Every refusal
// is shown to change nothing by reading the state back over the same API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboardApiServer } from "../testing/dashboard-api-server.ts";
import type { TestServer } from "../testing/test-server.ts";
import { SECURITY_HEADERS } from "./workbench-guard.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startDashboardApiServer();
});
afterAll(async () => {
  await s.close();
});

type TrpcError = { error: { json: { message: string; code: number; data: { code: string; httpStatus: number } } } };

async function clockOffset(): Promise<number> {
  const res = await fetch(`${s.url}/api/trpc/clock.show`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { data: { json: { offsetMs: number } } } }).result.data.json.offsetMs;
}

const advance = (headers: Record<string, string>, body: BodyInit = JSON.stringify({ json: { byMs: 60_000 } })) =>
  fetch(`${s.url}/api/trpc/clock.advance`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("Host", () => {
  it.each(["evil.example", "evil.example:80", "127.0.0.1.nip.io", "a@127.0.0.1", "0x7f000001.evil"])(
    "refuses Host %s on every path (421), before anything runs",
    async (host) => {
      const before = await clockOffset();
      for (const path of [
        "/api/trpc/clock.advance",
        "/connect/token",
        "/v1/agency/info",
        "/receivers/north-psap/health",
      ]) {
        const res = await rawRequest(
          path,
          { host, "content-type": "application/json" },
          JSON.stringify({ json: { byMs: 60_000 } }),
        );
        expect(res.status, `${host} ${path}`).toBe(421);
      }
      expect(await clockOffset()).toBe(before);
    },
  );

  it("answers its own origin and, in local mode, loopback names on any port", async () => {
    const port = new URL(s.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "localhost:9999", "[::1]:80", "127.0.0.2"]) {
      const res = await rawRequest("/api/trpc/clock.show", { host });
      expect(res.status, host).toBe(200);
    }
  });
});

describe("cross-site writes", () => {
  it("refuses a mutation with a foreign Origin (403, tRPC's error shape) and runs nothing", async () => {
    const before = await clockOffset();
    const res = await advance({ origin: "http://evil.example" });
    expect(res.status).toBe(403);
    const body = (await res.json()) as TrpcError;
    expect(body.error.json.data).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    expect(body.error.json.message).toMatch(/Cross-site/);
    expect(await clockOffset()).toBe(before);
  });

  it.each(["cross-site", "same-site"])("refuses Sec-Fetch-Site: %s even without Origin", async (site) => {
    const before = await clockOffset();
    expect((await advance({ "sec-fetch-site": site })).status).toBe(403);
    expect(await clockOffset()).toBe(before);
  });

  it("refuses Origin: null (sandboxed frames, privacy redirects)", async () => {
    expect((await advance({ origin: "null" })).status).toBe(403);
  });

  it("runs a same-origin browser mutation (Origin and Sec-Fetch-Site of the page)", async () => {
    const before = await clockOffset();
    const res = await advance({ origin: s.url, "sec-fetch-site": "same-origin" });
    expect(res.status).toBe(200);
    expect(await clockOffset()).toBe(before + 60_000);
  });

  it("runs a mutation from the page's loopback alias (Origin = the request's own origin)", async () => {
    const port = new URL(s.url).port;
    const before = await clockOffset();
    const res = await rawRequest(
      "/api/trpc/clock.advance",
      { host: `localhost:${port}`, origin: `http://localhost:${port}`, "content-type": "application/json" },
      JSON.stringify({ json: { byMs: 1_000 } }),
    );
    expect(res.status).toBe(200);
    expect(await clockOffset()).toBe(before + 1_000);
  });

  it("runs a CLI-like mutation (no Origin, no Sec-Fetch-Site)", async () => {
    const before = await clockOffset();
    expect((await advance({})).status).toBe(200);
    expect(await clockOffset()).toBe(before + 60_000);
  });

  it("refuses a curl -F form post: a form-data clock.reset with a foreign Origin", async () => {
    await advance({});
    const before = await clockOffset();
    expect(before).toBeGreaterThan(0);
    const form = new FormData();
    form.set("x", "1");
    const res = await fetch(`${s.url}/api/trpc/clock.reset`, {
      method: "POST",
      headers: { origin: "http://evil.example" },
      body: form,
    });
    expect(res.status).toBe(403);
    expect(await clockOffset()).toBe(before);
  });

  it("leaves the protocol surfaces to their own rules (the token endpoint is cross-origin by design)", async () => {
    const res = await fetch(`${s.url}/connect/token`, {
      method: "POST",
      headers: { origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("keeps GET reads open to cross-site navigation (they change nothing)", async () => {
    expect((await fetch(`${s.url}/api/trpc/clock.show`, { headers: { "sec-fetch-site": "cross-site" } })).status).toBe(
      200,
    );
  });
});

describe("dashboard API media type", () => {
  it.each([
    [
      "multipart/form-data",
      (): BodyInit => {
        const f = new FormData();
        f.set("x", "1");
        return f;
      },
    ],
    ["application/x-www-form-urlencoded", (): BodyInit => new URLSearchParams({ x: "1" })],
    ["text/plain", (): BodyInit => "x=1"],
    ["application/octet-stream", (): BodyInit => new Blob(["x"], { type: "application/octet-stream" })],
  ] as const)("refuses a %s mutation without Origin (415) and clock.reset does not run", async (_type, body) => {
    await advance({});
    const before = await clockOffset();
    const res = await fetch(`${s.url}/api/trpc/clock.reset`, { method: "POST", body: body() });
    expect(res.status).toBe(415);
    const error = (await res.json()) as TrpcError;
    expect(error.error.json.data).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 });
    expect(await clockOffset()).toBe(before);
  });
});

describe("dashboard API bounds", () => {
  const big = JSON.stringify({ json: { byMs: 1, pad: "x".repeat(1024 * 1024) } });

  it("refuses a declared body over 1 MiB (413) before reading it", async () => {
    const before = await clockOffset();
    const res = await advance({}, big);
    expect(res.status).toBe(413);
    expect(((await res.json()) as TrpcError).error.json.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await clockOffset()).toBe(before);
  });

  it("refuses a chunked body over 1 MiB (413) while reading it", async () => {
    const before = await clockOffset();
    const stream = new Blob([big]).stream();
    const res = await fetch(`${s.url}/api/trpc/clock.advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as TrpcError).error.json.data.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await clockOffset()).toBe(before);
  });

  it("answers a batch of 16 calls and refuses 17 with a clear error", async () => {
    const batch = (n: number) => fetch(`${s.url}/api/trpc/${Array(n).fill("clock.show").join(",")}?batch=1`);
    const ok = await batch(16);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveLength(16);
    const refused = await batch(17);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("A batch may hold at most 16 calls; this one has 17.");
  });

  it("refuses a batched mutation of 17 calls and runs none of them", async () => {
    const before = await clockOffset();
    const inputs = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [i, { json: { byMs: 1 } }]));
    const res = await fetch(`${s.url}/api/trpc/${Array(17).fill("clock.advance").join(",")}?batch=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(inputs),
    });
    expect(res.status).toBe(400);
    expect(await clockOffset()).toBe(before);
  });

  it("refuses a GET batch whose URL exceeds 8 KiB (414)", async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: { json: { pad: "x".repeat(9000) } } }));
    const res = await fetch(`${s.url}/api/trpc/clock.show?batch=1&input=${input}`);
    expect(res.status).toBe(414);
    expect(((await res.json()) as TrpcError).error.json.data.httpStatus).toBe(414);
  });
});

describe("security headers", () => {
  it.each(["/api/trpc/clock.show", "/connect/authorize?client_id=portal-spa", "/v1/agency/info", "/unknown-page"])(
    "are on %s",
    async (path) => {
      const res = await fetch(`${s.url}${path}`);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers.get(name), name).toBe(value);
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    },
  );
});

/** fetch() cannot set Host: a raw request can. */
async function rawRequest(
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const http = await import("node:http");
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: body === undefined ? "GET" : "POST",
        headers: { ...headers, ...(body === undefined ? {} : { "content-length": Buffer.byteLength(body) }) },
      },
      (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (d: string) => {
            text += d;
          })
          .on("end", () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
