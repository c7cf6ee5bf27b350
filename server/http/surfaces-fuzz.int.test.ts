// Property (SECURITY.md, protocol surfaces): whatever arrives at the token endpoint, /Account,
// /receivers/{key} and /api/trpc — random methods, media types, bodies, names
// such as __proto__, constructor or toString, oversize bodies — no answer is a
// 5xx, and every refusal is in its surface's own error format.
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appRouter } from "../api/root.ts";
import { mintPublisherToken } from "../identity/service-tokens.ts";
import { whenReceiverProcessingIdle } from "../reference-receiver/process-deliveries.ts";
import { startDashboardApiServer } from "../testing/dashboard-api-server.ts";
import type { TestServer } from "../testing/test-server.ts";
import { accessToken, NORTH } from "./identity/token-test-helpers.ts";

let s: TestServer;
let tokens: string[];
beforeAll(async () => {
  s = await startDashboardApiServer();
  tokens = [
    await accessToken(s.url, { scope: "identity.user.signin" }),
    (await mintPublisherToken(s.runtime, NORTH)).accessToken,
    "not-a-token",
  ];
});
afterAll(async () => {
  await whenReceiverProcessingIdle();
  await s.close();
});

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const HOSTILE_NAMES = [
  "__proto__",
  "constructor",
  "toString",
  "prototype",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "then",
];
const arbName = fc.oneof(fc.constantFrom(...HOSTILE_NAMES), fc.string({ maxLength: 20 }));
const arbMethod = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
const arbContentType = fc.constantFrom(
  undefined,
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "text/plain",
  "application/octet-stream",
  "application/json; charset=utf-8",
  "",
);
const FIELDS = [
  "grant_type",
  "client_id",
  "client_secret",
  "scope",
  "refresh_token",
  "code",
  "resource",
  "agency_context",
  "username",
  "returnUrl",
  "redirect_uri",
];
const arbForm = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...FIELDS), arbName),
      fc.oneof(
        arbName,
        fc.constantFrom("client_credentials", "refresh_token", "authorization_code", "portal-spa", "partner-cad"),
      ),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => new URLSearchParams(pairs).toString());
const arbJsonWithNames = fc
  .dictionary(fc.oneof(fc.constantFrom(...FIELDS, "agencyId", "userName"), arbName), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 5,
  })
  .map((o) => JSON.stringify(o));
const arbBody = fc.oneof(
  { weight: 3, arbitrary: arbForm },
  { weight: 3, arbitrary: arbJsonWithNames },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "{",
      "null",
      '{"__proto__":{"polluted":1}}',
      '{"constructor":{"prototype":{"polluted":1}}}',
    ),
  },
  { weight: 1, arbitrary: fc.constant("x".repeat(2 * 1024 * 1024)) },
);
const arbAuth = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 2 }).map((i) => () => `Bearer ${tokens[i]}`),
  fc.constantFrom("Basic eDp5", "Bearer", "Basic", "toString"),
);

type Answer = { res: { status: number; headers: { get: (name: string) => string | null } }; text: string };

/**
 * node:http rather than fetch: a server may answer an oversize body at once and
 * close the connection before the client has written it all; fetch then reports
 * only the broken write, this keeps the answer that did arrive.
 */
function send(
  method: string,
  path: string,
  contentType: string | undefined,
  body: string | undefined,
  auth: (() => string) | string | undefined,
): Promise<Answer> {
  const headers: Record<string, string | number> = {};
  if (contentType !== undefined) headers["content-type"] = contentType;
  const authorization = typeof auth === "function" ? auth() : auth;
  if (authorization !== undefined) headers.authorization = authorization;
  const payload = method === "GET" || method === "HEAD" || body === undefined ? undefined : Buffer.from(body);
  if (payload) headers["content-length"] = payload.length;
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    let answer: Answer | undefined;
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        answer = {
          res: {
            status: res.statusCode!,
            headers: { get: (n) => (res.headers[n.toLowerCase()] as string | undefined) ?? null },
          },
          text: Buffer.concat(chunks).toString("utf8"),
        };
        resolve(answer);
      });
    });
    req.on("error", (error) => {
      if (!answer) setTimeout(() => (answer ? resolve(answer) : reject(error)), 50);
    });
    req.end(payload);
  });
}

const isOAuthError = (text: string) => {
  const body = JSON.parse(text) as Record<string, unknown>;
  return typeof body.error === "string" && typeof body.error_description === "string";
};

it("the token endpoint: no 5xx; every error is {error, error_description}; a 200 is a token response", async () => {
  // Mostly well-formed POSTs, so the property reaches the grant lookup and the grants themselves.
  const arbTokenMethod = fc.oneof({ weight: 4, arbitrary: fc.constant("POST") }, { weight: 1, arbitrary: arbMethod });
  const arbTokenType = fc.oneof(
    { weight: 4, arbitrary: fc.constant("application/x-www-form-urlencoded") },
    { weight: 1, arbitrary: arbContentType },
  );
  const arbGrant = fc
    .oneof(fc.constantFrom("client_credentials", "refresh_token", "authorization_code"), arbName)
    .map((g) => `grant_type=${encodeURIComponent(g)}`);
  const arbTokenBody = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(arbGrant, arbForm).map(([g, rest]) => `${g}&${rest}`) },
    { weight: 1, arbitrary: arbBody },
  );
  await fc.assert(
    fc.asyncProperty(arbTokenMethod, arbTokenType, arbTokenBody, arbAuth, async (method, type, body, auth) => {
      const { res, text } = await send(method, "/connect/token", type, body, auth);
      expect(res.status, text).toBeLessThan(500);
      if (res.status >= 300) expect(isOAuthError(text), text).toBe(true);
      else expect(typeof (JSON.parse(text) as { access_token?: unknown }).access_token, text).toBe("string");
    }),
    { numRuns: RUNS },
  );
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}, 240_000);

it("/Account: no 5xx; GetUserSigninToken errors are problem+json, the rest redirects or {error, error_description}", async () => {
  const arbPath = fc.oneof(
    fc.constantFrom("/Account/GetUserSigninToken", "/Account/LoginUserByToken", "/Account/Session", "/Account/Logout"),
    arbName.map((n) => `/Account/${encodeURIComponent(n) || "x"}`),
    fc.tuple(arbName, arbName).map(
      ([k, v]) =>
        `/Account/LoginUserByToken?${new URLSearchParams([
          [k, v],
          ["returnUrl", v],
        ])}`,
    ),
  );
  await fc.assert(
    fc.asyncProperty(arbMethod, arbPath, arbContentType, arbBody, arbAuth, async (method, path, type, body, auth) => {
      const { res, text } = await send(method, path, type, body, auth);
      expect(res.status, `${method} ${path} ${text}`).toBeLessThan(500);
      if (res.status >= 300 && res.status < 400) expect(res.headers.get("location")).toBeTruthy();
      if (res.status >= 400) {
        if (res.headers.get("content-type") === "application/problem+json") {
          const problem = JSON.parse(text) as { code: string; status: number };
          expect(typeof problem.code).toBe("string");
          expect(problem.status).toBe(res.status);
        } else {
          expect(isOAuthError(text), `${method} ${path} ${text}`).toBe(true);
        }
      }
    }),
    { numRuns: RUNS },
  );
}, 240_000);

it("/receivers/{key}: no 5xx; every refusal is {error, error_description}", async () => {
  const arbPath = fc
    .tuple(
      fc.oneof(fc.constantFrom("north-psap", "fire-rescue"), arbName),
      fc.oneof(
        fc.constantFrom(
          "/health",
          "/about",
          "/v3/incidents",
          "/v3/incidents/x/label",
          "/v2/incidents",
          "/v1/incidents",
          "/v3",
        ),
        arbName.map((n) => `/v3/${encodeURIComponent(n) || "x"}`),
      ),
    )
    .map(([key, rest]) => `/receivers/${encodeURIComponent(key) || "x"}${rest}`);
  await fc.assert(
    fc.asyncProperty(arbMethod, arbPath, arbContentType, arbBody, arbAuth, async (method, path, type, body, auth) => {
      const { res, text } = await send(method, path, type, body, auth);
      expect(res.status, `${method} ${path} ${text}`).toBeLessThan(500);
      if (res.status >= 300) expect(isOAuthError(text), `${method} ${path} ${text}`).toBe(true);
    }),
    { numRuns: RUNS },
  );
}, 240_000);

// Mutations that are slow or reach outside (seed reset, simulator runs, conformance runs) stay out:
// their inputs are checked by the same schemas, and the property is about parsing and lookup.
const PROCEDURES = Object.keys(appRouter._def.procedures).filter(
  (p) => !/^(system\.resetSeed|simulator\.|conformance\.)/.test(p),
);

it("/api/trpc: no 5xx; every error is in tRPC's error shape", async () => {
  const arbProcedure = fc.oneof(
    fc.constantFrom(...PROCEDURES),
    arbName,
    fc.tuple(fc.constantFrom(...PROCEDURES), arbName).map(([p, n]) => `${p.split(".")[0]}.${n}`),
  );
  const arbCall = fc
    .tuple(
      fc.array(arbProcedure, { minLength: 1, maxLength: 20 }),
      fc.boolean(),
      fc.option(arbJsonWithNames, { nil: undefined }),
    )
    .map(([paths, batch, input]) => {
      const names = paths.map((p) => encodeURIComponent(p) || "x");
      const path = `/api/trpc/${(batch ? names : names.slice(0, 1)).join(",")}`;
      const query = new URLSearchParams(batch ? { batch: "1" } : {});
      if (input !== undefined) query.set("input", input);
      return `${path}?${query}`;
    });
  await fc.assert(
    fc.asyncProperty(arbMethod, arbCall, arbContentType, arbBody, async (method, path, type, body) => {
      const { res, text } = await send(method, path, type, body, undefined);
      expect(res.status, `${method} ${path} ${text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400) {
        const parsed = JSON.parse(text) as unknown;
        for (const one of Array.isArray(parsed) ? parsed : [parsed]) {
          const error = (
            one as {
              error?: { json?: { message: unknown; code: unknown; data: { code: unknown; httpStatus: unknown } } };
            }
          ).error?.json;
          if (!error) continue; // a batch answers the calls that succeeded beside the refused ones
          expect(typeof error.message).toBe("string");
          expect(typeof error.code).toBe("number");
          expect(typeof error.data.code).toBe("string");
          expect(typeof error.data.httpStatus).toBe("number");
        }
      }
    }),
    { numRuns: RUNS },
  );
}, 240_000);
