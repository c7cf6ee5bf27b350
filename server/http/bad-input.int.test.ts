// Every bad byte and every deep JSON is a clear refusal in its surface's own format (SECURITY.md,
// "Bad bytes and deep JSON"): a NUL (U+0000) or a lone surrogate (\ud800) in any field of the
// token endpoint, /connect/authorize, /Account, /v1, /receivers and tRPC, and JSON nested 100,000
// deep on each JSON surface. None is a 500, and none writes an error-level line or a stack trace
// into the log, which any caller without an account could otherwise do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiverClient } from "../reference-receiver/testing/deliver.ts";
import { whenReceiverProcessingIdle } from "../reference-receiver/process-deliveries.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { mintInboundToken } from "../testing/inbound-tokens.ts";
import { accessToken, NORTH } from "./identity/token-test-helpers.ts";

let s: TestServer;
let userToken: string;
let incidentId: string;
beforeAll(async () => {
  s = await startTestServer();
  userToken = await mintInboundToken(s.runtime, { username: "dispatcher.north" });
  const created = await v1("POST", "/v1/incidents", {
    routingMode: "TokenAgency",
    caller: { phoneNumber: "+4791234567" },
  });
  expect(created.status).toBe(201);
  incidentId = ((await created.json()) as { incidentId: string }).incidentId;
});
afterAll(async () => {
  await whenReceiverProcessingIdle();
  await s.close();
});

const NUL = "\u0000";
const LONE = "\ud800";
/** As JSON text: JSON.stringify writes a lone surrogate as the escape \ud800, which PostgreSQL's jsonb refuses. */
const BAD_STRINGS = [
  ["NUL", `Fall${NUL}elderly`],
  ["a lone surrogate", `Fall${LONE}elderly`],
] as const;
const DEEP = "[".repeat(100_000) + "]".repeat(100_000);

function v1(method: string, path: string, body?: unknown, raw?: string) {
  return fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${userToken}`, "content-type": "application/json" },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}

/** No line at error level (pino's 50) and no stack trace in the whole log so far. */
function expectNoErrorLines() {
  const bad = s.logs.records().filter((r) => (r.level as number) >= 50 || JSON.stringify(r).includes('"stack"'));
  expect(bad.map((r) => r.msg)).toEqual([]);
}

describe.each(BAD_STRINGS)("%s", (name, bad) => {
  // A form or a query string is UTF-8: it has no way to spell a lone surrogate (the encoder and the
  // decoder both turn one into U+FFFD), so only NUL can reach those surfaces.
  const inForms = name === "NUL";

  it.runIf(inForms)("/connect/token: invalid_request naming the field, for every field", async () => {
    for (const field of [
      "username",
      "client_id",
      "agency_context",
      "client_secret",
      "scope",
      "grant_type",
      "psap_id",
    ]) {
      const form = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: "partner-cad",
        client_secret: "partner-cad-secret",
        agency_context: NORTH,
        [field]: bad,
      });
      const res = await fetch(`${s.url}/connect/token`, { method: "POST", body: form });
      const body = (await res.json()) as { error: string; error_description: string };
      expect(res.status, field).toBe(400);
      expect(body.error, field).toBe("invalid_request");
      expect(body.error_description, field).toContain(field);
    }
    expectNoErrorLines();
  });

  it.runIf(inForms)("/connect/authorize: the request and the login form are refused, never a 500", async () => {
    for (const field of ["client_id", "redirect_uri", "state", "scope", "code_challenge"]) {
      const query = new URLSearchParams({
        response_type: "code",
        client_id: "portal-spa",
        redirect_uri: "http://localhost:3000/portal/callback",
        code_challenge: "x".repeat(43),
        code_challenge_method: "S256",
        state: "s",
        [field]: bad,
      });
      const res = await fetch(`${s.url}/connect/authorize?${query}`, { redirect: "manual" });
      expect(res.status, field).toBe(400);
      expect(await res.text(), field).toContain(field);
    }
    const login = await fetch(`${s.url}/connect/authorize`, {
      method: "POST",
      headers: { origin: s.url },
      redirect: "manual",
      body: new URLSearchParams({ client_id: "portal-spa", username: bad, password: "workbench" }),
    });
    expect(login.status).toBe(400);
    expectNoErrorLines();
  });

  it("/Account: GetUserSigninToken answers ValidationFailed; LoginUserByToken still redirects", async () => {
    const bearer = await accessToken(s.url, { scope: "identity.user.signin" });
    for (const body of [
      { agencyContext: NORTH, username: bad },
      { agencyContext: bad, username: "dispatcher.north" },
    ]) {
      const res = await fetch(`${s.url}/Account/GetUserSigninToken`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/problem\+json/);
      expect(((await res.json()) as { code: string }).code).toBe("ValidationFailed");
    }
    if (inForms)
      for (const query of [
        `token=${encodeURIComponent(bad)}&returnUrl=%2F`,
        `token=x&returnUrl=${encodeURIComponent(`/${bad}`)}`,
      ]) {
        const res = await fetch(`${s.url}/Account/LoginUserByToken?${query}`, { redirect: "manual" });
        expect(res.status, query).toBe(302);
      }
    expectNoErrorLines();
  });

  it("/v1: ValidationFailed naming the field, in a create, a text PATCH and a call", async () => {
    const cases: Array<[string, string, unknown, string]> = [
      [
        "POST",
        "/v1/incidents",
        { routingMode: "TokenAgency", caller: { phoneNumber: "+4791234567" }, label: bad },
        "label",
      ],
      ["POST", "/v1/incidents", { routingMode: "TokenAgency", caller: { phoneNumber: bad } }, "caller.phoneNumber"],
      ["PATCH", `/v1/incidents/${incidentId}/label`, { label: bad }, "label"],
      ["PATCH", `/v1/incidents/${incidentId}/summary`, { summary: bad }, "summary"],
      ["PATCH", `/v1/incidents/${incidentId}/caller/full-name`, { fullName: bad }, "fullName"],
      ["POST", "/v1/calls", { phoneNumber: bad }, "phoneNumber"],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await v1(method, path, body);
      expect(res.status, `${method} ${path} ${field}`).toBe(400);
      const problem = (await res.json()) as { code: string; errors: Array<{ field: string }> };
      expect(problem.code).toBe("ValidationFailed");
      expect(problem.errors.map((e) => e.field)).toContain(field);
    }
    expectNoErrorLines();
  });

  it("/receivers: a delivery with one is recorded flagged and answered 200, as any unparseable body", async () => {
    const res = await receiverClient(s, "north-psap", NORTH).send("POST", "/v3/incidents", {
      incident: { id: crypto.randomUUID(), label: bad },
    });
    expect(res.status).toBe(200);
    await whenReceiverProcessingIdle();
    expectNoErrorLines();
  });

  it("tRPC: BAD_REQUEST naming the field, in a query's input and a mutation's body", async () => {
    const query = await fetch(
      `${s.url}/api/trpc/deliveries.inspect?input=${encodeURIComponent(JSON.stringify({ json: { search: bad } }))}`,
    );
    expect(query.status).toBe(400);
    const refusal = (await query.json()) as { error: { json: { message: string; data: { code: string } } } };
    expect(refusal.error.json.data.code).toBe("BAD_REQUEST");
    expect(refusal.error.json.message).toContain("search");
    for (const [path, input] of [
      ["access.clearGuessThrottle", { kind: "member", subject: bad }],
      ["simulator.act", { incidentId, action: { action: "chatMessage", text: bad } }],
    ] as const) {
      const res = await fetch(`${s.url}/api/trpc/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: input }),
      });
      expect(res.status, path).toBe(400);
    }
    expectNoErrorLines();
  });
});

describe("JSON nested 100,000 deep", () => {
  it("is refused by every JSON surface in its format, before any parser walks it", async () => {
    const trpcBody = await fetch(`${s.url}/api/trpc/clock.advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"json":${DEEP}}`,
    });
    expect(trpcBody.status).toBe(400);
    expect(((await trpcBody.json()) as { error: { json: { message: string } } }).error.json.message).toMatch(/deeper/);

    const trpcQuery = await fetch(`${s.url}/api/trpc/deliveries.inspect?input=${"%5B".repeat(2000)}`);
    expect(trpcQuery.status).toBe(400);

    const inbound = await v1("POST", "/v1/incidents", undefined, `{"caller":${"[".repeat(30_000)}}`);
    expect(inbound.status).toBe(400);
    expect(((await inbound.json()) as { code: string }).code).toBe("ValidationFailed");

    const bearer = await accessToken(s.url, { scope: "identity.user.signin" });
    const account = await fetch(`${s.url}/Account/GetUserSigninToken`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: `{"username":${"[".repeat(30_000)}}`,
    });
    expect(account.status).toBe(400);

    const receiver = await receiverClient(s, "north-psap", NORTH).send("POST", "/v3/incidents", undefined, {
      rawBody: DEEP,
    });
    expect(receiver.status).toBe(200);
    await whenReceiverProcessingIdle();
    expectNoErrorLines();
  });
});
