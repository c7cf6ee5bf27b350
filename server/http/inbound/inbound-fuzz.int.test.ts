// Property: whatever arrives — malformed bodies, paths, headers, tokens — the
// inbound API never answers 5xx, and every non-2xx answer is problem+json
// with a known code.
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startInboundFixture, type InboundFixture } from "../../testing/inbound-fixture.ts";
import { mintInboundToken } from "../../testing/inbound-tokens.ts";
import { PROBLEM_CODES } from "./problem.ts";

let f: InboundFixture;
let incidentId: string;
let tokens: string[];
beforeAll(async () => {
  f = await startInboundFixture();
  incidentId = await f.createIncident();
  tokens = [
    f.tokens.north,
    f.tokens.ems,
    f.tokens.northApp,
    await mintInboundToken(f.runtime, { agencyId: null }),
    await mintInboundToken(f.runtime, { username: "dispatcher.north", scopes: ["agency.read"] }),
    await mintInboundToken(f.runtime, { agencyId: "not-a-uuid", username: "dispatcher.north" }),
  ];
});
afterAll(async () => {
  await f.close();
});

const PATHS = [
  "/v1/agency/info",
  "/v1/calls",
  "/v1/calls/{id}/end",
  "/v1/incidents",
  "/v1/incidents/{id}/label",
  "/v1/incidents/{id}/call-sign",
  "/v1/incidents/{id}/caller/full-name",
  "/v1/incidents/{id}/summary",
  "/v1/incidents/{id}/patient/description",
  "/v1/incidents/{id}/caller/track",
  "/v1/incidents/{id}/caller/locate",
  "/v1/incidents/{id}/caller/chat/activate",
  "/v1/incidents/{id}/caller/live-video/activate",
  "/v1/incidents/{id}/close",
  "/v1/incidents/{id}/involved-agencies",
  "/v1/incidents/{id}/collaboration/accept",
  "/v1/incidents/{id}/collaboration/decline",
];

const arbId = fc.oneof(
  fc.constant(() => incidentId),
  fc.uuid().map((u) => () => u),
  fc.string({ maxLength: 40 }).map((s) => () => encodeURIComponent(s) || "x"),
  fc.constant(() => "%00"),
  fc.constant(() => "..%2F..%2Fetc"),
);
const arbPath = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(fc.constantFrom(...PATHS), arbId).map(
      ([p, id]) =>
        () =>
          p.replace("{id}", id()),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .webPath()
      .map((p) => `/v1${p.startsWith("/") ? p : `/${p}`}`)
      // fetch resolves dot segments (`..`, `%2e%2e`) before sending: a path that climbs out of /v1
      // never reaches the inbound API (it asks whichever surface it lands on).
      .filter((p) => /^\/v1(\/|$)/.test(new URL(p, "http://127.0.0.1").pathname))
      .map((p) => () => p),
  },
);
const arbJson = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        label: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
        latitude: fc.double(),
        longitude: fc.double(),
        routingMode: fc.constantFrom("TokenAgency", "Jurisdiction", "x"),
        caller: fc.record(
          {
            phoneNumber: fc.oneof(fc.string(), fc.constant("+4712345678")),
            location: fc.record({ latitude: fc.double(), longitude: fc.double() }),
          },
          { requiredKeys: [] },
        ),
        requestedIncidentId: fc.oneof(fc.uuid(), fc.string()),
        agencyId: fc.oneof(fc.uuid(), fc.string()),
        callerPhoneNumber: fc.string(),
        startedAtUtc: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.string(),
        ),
        endedAtUtc: fc.string(),
        preferredAgencyTypes: fc.array(fc.string()),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constant(""),
  fc.constant("{"),
  fc.constant("null"),
  fc.constant('{"__proto__":{"x":1}}'),
);
const arbAuth = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 0, max: 5 }).map((i) => () => `Bearer ${tokens[i]}`),
  fc
    .integer({ min: 0, max: 5 })
    .chain((i) => fc.integer({ min: 10, max: 400 }).map((cut) => () => `Bearer ${tokens[i]!.slice(0, cut)}`)),
  fc
    .string({ maxLength: 80 })
    .filter((s) => /^[\x20-\x7e]*$/.test(s))
    .map((s) => () => s),
  fc.base64String({ maxLength: 200 }).map((s) => () => `Bearer ${s}.${s}.${s}`),
);
const arbContentType = fc.constantFrom(
  undefined,
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/problem+json",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/jsonx",
  "",
);

it("never answers 5xx; every error is problem+json with a known code", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("GET", "POST", "PATCH", "PUT", "DELETE"),
      arbPath,
      arbAuth,
      arbContentType,
      fc.option(arbJson, { nil: undefined }),
      fc.option(fc.constantFrom('"1"', "*", "garbage", 'W/"2"'), { nil: undefined }),
      async (method, path, auth, contentType, body, ifMatch) => {
        const headers: Record<string, string> = {};
        const authorization = auth?.();
        if (authorization !== undefined) headers.authorization = authorization;
        if (contentType !== undefined) headers["content-type"] = contentType;
        if (ifMatch) headers["if-match"] = ifMatch;
        const res = await fetch(`${f.server.url}${path()}`, {
          method,
          headers,
          body: method === "GET" ? undefined : body,
        });
        const text = await res.text();
        expect(res.status, `${method} ${path()} → ${res.status} ${text}`).toBeLessThan(500);
        if (res.status >= 300) {
          expect(res.headers.get("content-type")).toBe("application/problem+json");
          const problem = JSON.parse(text) as { code: string; status: number; type: string; traceId: string };
          expect(PROBLEM_CODES).toContain(problem.code);
          expect(problem.status).toBe(res.status);
          expect(problem.type.endsWith(`/problems/${problem.code}`)).toBe(true);
        }
      },
    ),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 3000) },
  );
}, 240_000);
