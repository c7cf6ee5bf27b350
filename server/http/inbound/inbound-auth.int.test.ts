// Black-box: authentication, token contexts, scopes and the request envelope (401/403/404/413/415).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintAccessToken } from "../../identity/access-token.ts";
import { inboundApiResource } from "../../identity/resources.ts";
import { ManualClock } from "../../platform/clock/clock.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { ALL_INBOUND_SCOPES, mintInboundToken, seededTokens } from "../../testing/inbound-tokens.ts";
import { inboundClient, type Answer } from "../../testing/inbound-client.ts";
import { AGENCY } from "../../../prisma/seed.ts";

let s: TestServer;
let call: ReturnType<typeof inboundClient>;
let t: Awaited<ReturnType<typeof seededTokens>>;
beforeAll(async () => {
  s = await startTestServer();
  call = inboundClient(s.url);
  t = await seededTokens(s.runtime);
});
afterAll(async () => {
  await s.close();
});

function expectProblem(a: Answer, status: number, code: string) {
  expect({ status: a.status, code: a.body?.code }).toEqual({ status, code });
  expect(a.headers.get("content-type")).toBe("application/problem+json");
  expect(a.body).toMatchObject({
    type: `${s.url}/problems/${code}`,
    status,
    code,
    title: expect.any(String),
    detail: expect.any(String),
    instance: expect.stringMatching(/^\/v1\//),
    traceId: expect.any(String),
  });
}

describe("401 AuthenticationRequired", () => {
  it("without a token, with a malformed one, another scheme, a wrong audience, issuer or type, or expired", async () => {
    const expired = await mintAccessToken({
      keys: s.runtime.keys,
      clock: new ManualClock(s.runtime.clock.nowMs() - 7_200_000),
      issuer: s.runtime.env.AUTH_URL,
      subject: "partner-cad",
      audience: inboundApiResource(s.runtime.env),
      clientId: "partner-cad",
      scope: ["agency.read"],
      lifetimeS: 3600,
      claims: { agency_context: AGENCY.northPsap },
    });
    const wrongIss = await mintAccessToken({
      keys: s.runtime.keys,
      clock: s.runtime.clock,
      issuer: "https://elsewhere.example",
      subject: "partner-cad",
      audience: inboundApiResource(s.runtime.env),
      clientId: "partner-cad",
      scope: ["agency.read"],
      lifetimeS: 3600,
      claims: { agency_context: AGENCY.northPsap },
    });
    const accountOnly = await mintInboundToken(s.runtime, { audience: `${s.runtime.env.AUTH_URL}/Account` });
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer" },
      { authorization: "Bearer not.a.jwt" },
      { authorization: `Basic ${t.northApp}` },
      { authorization: `Bearer ${expired}` },
      { authorization: `Bearer ${wrongIss}` },
      { authorization: `Bearer ${accountOnly}` },
      { authorization: `Bearer ${t.northApp.slice(0, -4)}AAAA` },
    ];
    for (const headers of cases) {
      const a = await call("GET", "/v1/agency/info", { headers });
      expectProblem(a, 401, "AuthenticationRequired");
      expect(a.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("accepts a token whose aud lists {base_url}/v1 among others", async () => {
    const token = await mintInboundToken(s.runtime, {
      audience: [inboundApiResource(s.runtime.env), `${s.runtime.env.AUTH_URL}/Account`],
    });
    expect((await call("GET", "/v1/agency/info", { token })).status).toBe(200);
  });

  it("logs the code with the traceId, never the token", async () => {
    const a = await call("GET", "/v1/agency/info", { headers: { authorization: "Bearer x.y.z" } });
    expect(s.logs.records().some((r) => r.traceId === a.body.traceId && r.code === "AuthenticationRequired")).toBe(
      true,
    );
    // The request's own line carries it too; a request that succeeds has none (no problem to trace).
    const line = s.logs.records().find((r) => r.msg === "request" && r.traceId === a.body.traceId);
    expect(line).toMatchObject({ method: "GET", path: "/v1/agency/info", status: 401 });
    expect(s.logs.text).not.toContain(t.northApp);
  });
});

describe("403 by token context and scope (Authentication rule 7)", () => {
  it("AgencyContextRequired for a token without agency_context, on agency and user operations", async () => {
    const token = await mintInboundToken(s.runtime, { agencyId: null });
    expectProblem(await call("GET", "/v1/agency/info", { token }), 403, "AgencyContextRequired");
    expectProblem(
      await call("POST", "/v1/calls", {
        token,
        body: { callerPhoneNumber: "+4711111111", startedAtUtc: "2026-11-22T08:00:00Z" },
      }),
      403,
      "AgencyContextRequired",
    );
    expectProblem(await call("POST", "/v1/incidents", { token, body: {} }), 403, "AgencyContextRequired");
  });

  it("UserContextRequired for an application token on incident operations", async () => {
    expectProblem(
      await call("POST", "/v1/incidents", {
        token: t.northApp,
        body: { routingMode: "TokenAgency", caller: { phoneNumber: "+4711111111" } },
      }),
      403,
      "UserContextRequired",
    );
    expectProblem(
      await call("PATCH", "/v1/incidents/00000000-0000-4000-8000-000000000000/label", {
        token: t.northApp,
        body: { label: "x" },
      }),
      403,
      "UserContextRequired",
    );
  });

  it("AuthorizationDenied when the scope is missing (agency.read only)", async () => {
    const readonly = await mintInboundToken(s.runtime, { clientId: "partner-readonly", scopes: ["agency.read"] });
    expect((await call("GET", "/v1/agency/info", { token: readonly })).status).toBe(200);
    expectProblem(
      await call("POST", "/v1/calls", {
        token: readonly,
        body: { callerPhoneNumber: "+4711111111", startedAtUtc: "2026-11-22T08:00:00Z" },
      }),
      403,
      "AuthorizationDenied",
    );
    const noCreate = await mintInboundToken(s.runtime, { username: "dispatcher.north", scopes: ["incident.update"] });
    expectProblem(await call("POST", "/v1/incidents", { token: noCreate, body: {} }), 403, "AuthorizationDenied");
  });
});

describe("403 AuthorizationDenied: every operation's own scope (a token holding every other scope)", () => {
  const OPERATIONS: Array<[scope: string, method: string, path: string, body: unknown]> = [
    ["agency.read", "GET", "/v1/agency/info", undefined],
    ["call.report", "POST", "/v1/calls", { callerPhoneNumber: "+4711111112", startedAtUtc: "2026-11-22T08:00:00Z" }],
    [
      "incident.create",
      "POST",
      "/v1/incidents",
      { routingMode: "TokenAgency", caller: { phoneNumber: "+4711111113" } },
    ],
    ["incident.update", "PATCH", "/v1/incidents/{id}/label", { label: "denied" }],
    ["incident.update", "PATCH", "/v1/incidents/{id}/summary", { summary: "denied" }],
    ["incident.update", "PATCH", "/v1/incidents/{id}/call-sign", { callSign: "denied" }],
    ["incident.update", "PATCH", "/v1/incidents/{id}/caller/full-name", { fullName: "denied" }],
    ["incident.update", "PATCH", "/v1/incidents/{id}/patient/description", { description: "denied" }],
    ["incident.caller.track", "POST", "/v1/incidents/{id}/caller/track", { latitude: 59.96, longitude: 10.75 }],
    ["incident.caller.locate", "POST", "/v1/incidents/{id}/caller/locate", undefined],
    ["incident.caller.chat", "POST", "/v1/incidents/{id}/caller/chat/activate", undefined],
    ["incident.caller.live-video", "POST", "/v1/incidents/{id}/caller/live-video/activate", undefined],
    ["incident.collaboration", "POST", "/v1/incidents/{id}/involved-agencies", { agencyId: AGENCY.centralEms }],
    ["incident.collaboration", "POST", "/v1/incidents/{id}/collaboration/accept", undefined],
    ["incident.collaboration", "POST", "/v1/incidents/{id}/collaboration/decline", undefined],
    ["incident.close", "POST", "/v1/incidents/{id}/close", undefined],
  ];

  it.each(OPERATIONS)("without %s: %s %s is denied and changes nothing", async (scope, method, path, body) => {
    const full = await mintInboundToken(s.runtime, { username: "dispatcher.north" });
    const created = await call("POST", "/v1/incidents", {
      token: full,
      body: { routingMode: "TokenAgency", caller: { phoneNumber: "+4711111199" } },
    });
    const id = created.body.incidentId as string;
    const before = await s.runtime.db.incident.findUniqueOrThrow({ where: { id }, select: { lastSeq: true } });
    const token = await mintInboundToken(s.runtime, {
      username: "dispatcher.north",
      scopes: ALL_INBOUND_SCOPES.filter((x) => x !== scope),
    });
    expectProblem(await call(method, path.replace("{id}", id), { token, body }), 403, "AuthorizationDenied");
    expect(await s.runtime.db.incident.findUniqueOrThrow({ where: { id }, select: { lastSeq: true } })).toEqual(before);
  });
});

describe("GET /v1/agency/info", () => {
  it("names the agency and its relatedAgencies", async () => {
    const a = await call("GET", "/v1/agency/info", { token: t.northApp });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({
      id: AGENCY.northPsap,
      displayName: "North PSAP",
      type: "Psap",
      relatedAgencies: [
        { id: AGENCY.centralEms, displayName: "Central EMS", type: "Ems" },
        { id: AGENCY.fireRescue, displayName: "Fire and Rescue", type: "Fire" },
      ],
    });
  });
});

describe("request envelope", () => {
  it("415 for a non-JSON body, 400 ValidationFailed for malformed JSON, 413 over 64 KiB", async () => {
    expectProblem(
      await call("POST", "/v1/calls", {
        token: t.northApp,
        raw: "callerPhoneNumber=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
      "UnsupportedMediaType",
    );
    expectProblem(await call("POST", "/v1/calls", { token: t.northApp, raw: "{}" }), 415, "UnsupportedMediaType");
    const malformed = await call("POST", "/v1/calls", {
      token: t.northApp,
      raw: "{nope",
      headers: { "content-type": "application/json" },
    });
    expectProblem(malformed, 400, "ValidationFailed");
    expect(malformed.body.errors).toEqual([{ field: "body", message: "malformed JSON" }]);
    const big = JSON.stringify({
      callerPhoneNumber: "+4711111111",
      startedAtUtc: "2026-11-22T08:00:00Z",
      pad: "x".repeat(70_000),
    });
    expectProblem(
      await call("POST", "/v1/calls", { token: t.northApp, raw: big, headers: { "content-type": "application/json" } }),
      413,
      "RequestTooLarge",
    );
  });

  it("a chunked body (no Content-Length) is counted as it streams: 413 past 64 KiB, accepted below", async () => {
    const chunked = (text: string) =>
      fetch(`${s.url}/v1/calls`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.northApp}`, "content-type": "application/json" },
        duplex: "half",
        body: new ReadableStream({
          start(c) {
            for (let i = 0; i < text.length; i += 8_192) c.enqueue(new TextEncoder().encode(text.slice(i, i + 8_192)));
            c.close();
          },
        }),
      } as RequestInit);
    const over = await chunked(
      JSON.stringify({
        callerPhoneNumber: "+4711111112",
        startedAtUtc: "2026-11-22T08:00:00Z",
        pad: "x".repeat(70_000),
      }),
    );
    expect(over.headers.get("content-type")).toBe("application/problem+json");
    expect({ status: over.status, code: (await over.json()).code }).toEqual({ status: 413, code: "RequestTooLarge" });
    const fine = await chunked(
      JSON.stringify({ callerPhoneNumber: "+4711111113", startedAtUtc: "2026-11-22T08:00:00Z" }),
    );
    expect(fine.status).toBe(201);
  });

  it("ValidationFailed names every offending field", async () => {
    const a = await call("POST", "/v1/calls", {
      token: t.northApp,
      body: { callerPhoneNumber: "", startedAtUtc: "yesterday", extra: 1 },
    });
    expectProblem(a, 400, "ValidationFailed");
    expect([...new Set(a.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual([
      "callerPhoneNumber",
      "extra",
      "startedAtUtc",
    ]);
  });

  it("404 RouteNotFound for an unknown path, as problem+json", async () => {
    expectProblem(await call("GET", "/v1/nothing-here", { token: t.northApp }), 404, "RouteNotFound");
    expectProblem(await call("DELETE", "/v1/calls", { token: t.northApp }), 404, "RouteNotFound");
    expectProblem(await call("GET", "/v1/nothing-here"), 404, "RouteNotFound");
  });

  it("serves the OpenAPI 3.1 document without a token, every error code documented per operation", async () => {
    const a = await call("GET", "/v1/openapi.json");
    expect(a.status).toBe(200);
    expect(a.body.openapi).toBe("3.1.0");
    const create = a.body.paths["/v1/incidents"].post;
    expect(create.requestBody.content["application/json"].schema).toBeDefined();
    const documented: Record<string, string[]> = {};
    for (const [path, methods] of Object.entries(a.body.paths as Record<string, Record<string, Operation>>))
      for (const [method, operation] of Object.entries(methods)) {
        const codes: string[] = [];
        for (const [status, response] of Object.entries(operation.responses)) {
          const examples = response.content?.["application/problem+json"]?.examples ?? {};
          for (const [code, example] of Object.entries(examples)) {
            // Each example sits under its code's status in the spec's error table.
            expect({ code, status: Number(status) }).toEqual({ code, status: example.value.status });
            expect(example.value.code).toBe(code);
            codes.push(code);
          }
        }
        documented[`${method.toUpperCase()} ${path}`] = [...new Set(codes)].sort();
        // An outage: the spec's InternalServerError at 503, and when to retry.
        const outage = operation.responses["503"];
        expect(Object.keys(outage?.content?.["application/problem+json"]?.examples ?? {})).toEqual([
          "InternalServerError",
        ]);
        expect(outage?.headers).toHaveProperty("Retry-After");
      }
    expect(documented).toEqual(
      Object.fromEntries(Object.entries(EXPECTED_CODES).map(([op, c]) => [op, [...new Set(c)].sort()])),
    );
  });
});

type Operation = {
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: Record<string, { examples?: Record<string, { value: { status: number; code: string } }> }>;
    }
  >;
};

// Every operation's error codes, written from the spec's error table and each operation's text
// (docs/spec/platform-interface.md, "Inbound API"), independently of the code that documents them.
// A database outage is InternalServerError too, at 503 with Retry-After (decision 0064): any operation
// meets it while its database is away (docs/database-outages.md).
const AUTH = ["AuthenticationRequired", "AgencyContextRequired", "AuthorizationDenied", "InternalServerError"];
const USER = [...AUTH, "UserContextRequired"];
const BODY = ["ValidationFailed", "RequestTooLarge", "UnsupportedMediaType"];
const ON_INCIDENT = [...USER, "IncidentNotFound", "IncidentClosed", "UnsupportedMediaType", "RequestTooLarge"];
const TEXT_PATCH = [...ON_INCIDENT, ...BODY, "UpdateConflict"];
const EXPECTED_CODES: Record<string, string[]> = {
  "GET /v1/agency/info": AUTH,
  "POST /v1/calls": [...AUTH, ...BODY, "CallAlreadyExists"],
  "POST /v1/calls/{callId}/end": [...AUTH, ...BODY, "CallNotFound", "CallAlreadyEnded"],
  "POST /v1/incidents": [...USER, ...BODY, "CallerPhoneNumberRequired", "CallNotFound", "IncidentAlreadyExists"],
  "PATCH /v1/incidents/{incidentId}/label": TEXT_PATCH,
  "PATCH /v1/incidents/{incidentId}/summary": TEXT_PATCH,
  "PATCH /v1/incidents/{incidentId}/call-sign": TEXT_PATCH,
  "PATCH /v1/incidents/{incidentId}/patient/description": TEXT_PATCH,
  "PATCH /v1/incidents/{incidentId}/caller/full-name": TEXT_PATCH,
  "POST /v1/incidents/{incidentId}/caller/track": [...ON_INCIDENT, ...BODY],
  "POST /v1/incidents/{incidentId}/caller/locate": [...ON_INCIDENT, "CallerPhoneNumberRequired"],
  "POST /v1/incidents/{incidentId}/caller/chat/activate": [...ON_INCIDENT, "ChatAlreadyActive"],
  "POST /v1/incidents/{incidentId}/caller/live-video/activate": [...ON_INCIDENT, "LiveVideoAlreadyActive"],
  "POST /v1/incidents/{incidentId}/close": ON_INCIDENT,
  "POST /v1/incidents/{incidentId}/involved-agencies": [
    ...ON_INCIDENT,
    ...BODY,
    "AgencyNotAllowed",
    "CollaborationInvitationPending",
    "CollaborationAlreadyActive",
  ],
  "POST /v1/incidents/{incidentId}/collaboration/accept": [
    ...ON_INCIDENT,
    "NoPendingCollaborationInvitation",
    "CollaborationInvitationAlreadyResolved",
  ],
  "POST /v1/incidents/{incidentId}/collaboration/decline": [
    ...ON_INCIDENT,
    "NoPendingCollaborationInvitation",
    "CollaborationInvitationAlreadyResolved",
  ],
};
