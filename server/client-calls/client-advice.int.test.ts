// The verdict on a partner's client (docs/api-calls.md), over real HTTP: a test client commits each
// mistake the spec's rules name and its report says so, with what was seen; a client that commits
// none gets a clean report. Each test is its own client, so the reports do not mix.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../identity/manage-clients.ts";
import { INBOUND_SCOPES, USER_SIGNIN_SCOPE, USERNAME_REQUIRED_SCOPE } from "../identity/scopes.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { EMS, NORTH } from "../http/identity/token-test-helpers.ts";
import { callRecorderOf } from "./record-calls.ts";
import { clientReport } from "./list-calls.ts";
import { setClientFault } from "./client-faults.ts";
import { forgetClientFaults } from "./current-faults.ts";
import type { AdviceRule } from "./advice/advice-rules.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

type Client = { id: string; secret: string };
const USER_SCOPES =
  "incident.create incident.update incident.caller.track incident.close call.report username.required";

async function newClient(): Promise<Client> {
  const id = `advice-${randomUUID().slice(0, 8)}`;
  const { clientSecret } = await createClient({
    ...s.runtime,
    input: {
      clientId: id,
      displayName: id,
      scopes: [...INBOUND_SCOPES, USERNAME_REQUIRED_SCOPE, USER_SIGNIN_SCOPE],
      agencyIds: [NORTH, EMS],
      accessTokenLifetimeS: 3600,
    },
  });
  // The seeded dispatchers may be named by this client's tokens (Authentication rule 4).
  const users = await s.runtime.db.user.findMany({
    where: { username: { in: ["dispatcher.north", "dispatcher.ems"] } },
  });
  await s.runtime.db.userClient.createMany({ data: users.map((u) => ({ userId: u.id, clientId: id })) });
  return { id, secret: clientSecret };
}

async function tokenRequest(client: Client, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return fetch(`${s.url}/connect/token`, {
    method: "POST",
    headers,
    // A field given as "" is left out.
    body: new URLSearchParams(
      Object.entries({
        grant_type: "client_credentials",
        client_id: client.id,
        client_secret: client.secret,
        agency_context: NORTH,
        username: "dispatcher.north",
        scope: USER_SCOPES,
        ...fields,
      }).filter(([, v]) => v !== ""),
    ),
  });
}

async function token(client: Client, fields: Record<string, string> = {}): Promise<string> {
  const res = await tokenRequest(client, fields);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function v1(bearer: string, method: string, path: string, body?: unknown) {
  return fetch(`${s.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const create = (bearer: string, extra: Record<string, unknown> = {}) =>
  v1(bearer, "POST", "/v1/incidents", { routingMode: "TokenAgency", caller: { phoneNumber: "+4791234567" }, ...extra });

async function report(client: Client) {
  await callRecorderOf(s.runtime).flush();
  return clientReport({ ...s.runtime, clientId: client.id, sinceMs: s.runtime.clock.nowMs() - 3_600_000 });
}

async function expectRule(client: Client, rule: AdviceRule, seen: RegExp) {
  const r = await report(client);
  const found = r.advice.filter((a) => a.rule === rule);
  expect(found.length, `${rule} in ${JSON.stringify(r.rules.map((t) => t.rule))}`).toBeGreaterThan(0);
  const match = found.find((a) => seen.test(a.seen));
  expect(match, `${rule}: ${JSON.stringify(found.map((a) => a.seen))}`).toBeDefined();
  expect(match!.fix.length).toBeGreaterThan(20);
  expect(match!.spec).toBeTruthy();
  return r;
}

describe("a client that follows every rule", () => {
  it("gets a clean report", async () => {
    const client = await newClient();
    const bearer = await token(client);
    const created = await create(bearer, { requestedIncidentId: randomUUID() });
    expect(created.status).toBe(201);
    const { incidentId } = (await created.json()) as { incidentId: string };
    expect(
      (await v1(bearer, "POST", `/v1/incidents/${incidentId}/caller/track`, { latitude: 59.97, longitude: 10.76 }))
        .status,
    ).toBe(201);
    expect((await v1(bearer, "PATCH", `/v1/incidents/${incidentId}/label`, { label: "Fall" })).status).toBe(200);
    const call = await v1(bearer, "POST", "/v1/calls", {
      callerPhoneNumber: "+4791234567",
      startedAtUtc: new Date(s.runtime.clock.nowMs() - 60_000).toISOString(),
    });
    expect(call.status).toBe(201);
    const { callId } = (await call.json()) as { callId: string };
    expect(
      (await v1(bearer, "POST", `/v1/calls/${callId}/end`, { endedAtUtc: s.runtime.clock.now().toISOString() })).status,
    ).toBe(200);
    // Another agency's context gets its own token: that is what the rule asks.
    expect((await tokenRequest(client, { agency_context: EMS, username: "dispatcher.ems" })).status).toBe(200);
    const r = await report(client);
    expect(r).toMatchObject({ verdict: "clean", errors: 0, warnings: 0, rules: [] });
    expect(r.calls).toBe(7);
  });
});

describe("a client that breaks a rule hears which, what was seen, and the fix", () => {
  it("a token per call (Access tokens, rule 2)", async () => {
    const client = await newClient();
    for (let i = 0; i < 3; i++) await create(await token(client), { requestedIncidentId: randomUUID() });
    const r = await expectRule(client, "token-per-call", /had \d+ of 3600 s left/);
    expect(r.verdict).toBe("errors");
    expect(r.rules.find((t) => t.rule === "token-per-call")?.count).toBe(2);
  });

  it("an expired token", async () => {
    const client = await newClient();
    const bearer = await token(client);
    await s.withClockAhead(3_700_000, async () => {
      expect((await create(bearer, { requestedIncidentId: randomUUID() })).status).toBe(401);
      await expectRule(client, "token-expired", /expired \d+ s before this call \(answered 401\)/);
    });
  });

  it("a call for an agency the token does not carry", async () => {
    const client = await newClient();
    const north = await token(client);
    const { incidentId } = (await (await create(north, { requestedIncidentId: randomUUID() })).json()) as {
      incidentId: string;
    };
    const ems = await token(client, { agency_context: EMS, username: "dispatcher.ems" });
    expect((await v1(ems, "PATCH", `/v1/incidents/${incidentId}/label`, { label: "x" })).status).toBe(404);
    await expectRule(client, "agency-context", new RegExp(`agency ${NORTH}'s.*carries agency ${EMS}`));
  });

  it("psap_id (deprecated)", async () => {
    const client = await newClient();
    await tokenRequest(client, { psap_id: NORTH, agency_context: "" });
    await expectRule(client, "psap-id", /sent psap_id/);
  });

  it("client credentials from a browser: an Origin, a CORS preflight", async () => {
    const client = await newClient();
    await tokenRequest(client, {}, { origin: "https://cad.example.com" });
    await fetch(`${s.url}/connect/token`, {
      method: "OPTIONS",
      headers: { origin: "https://cad.example.com", "access-control-request-method": "POST" },
    });
    await expectRule(client, "browser-credentials", /Origin https:\/\/cad\.example\.com/);
  });

  it("a sign-in token encoded a second time (LoginUserByToken, rule 6)", async () => {
    const client = await newClient();
    const bearer = await token(client, { scope: USER_SIGNIN_SCOPE, username: "" });
    const issued = await fetch(`${s.url}/Account/GetUserSigninToken`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ agencyContext: NORTH, username: "dispatcher.north" }),
    });
    const { token: signin } = (await issued.json()) as { token: string };
    const login = await fetch(
      `${s.url}/Account/LoginUserByToken?token=${encodeURIComponent(signin)}&returnUrl=%2Fportal`,
      {
        redirect: "manual",
      },
    );
    expect(login.status).toBe(302);
    await expectRule(client, "signin-token-encoded-twice", /%25 in the token/);
  });

  it("creates without requestedIncidentId, and the duplicates they cause", async () => {
    const client = await newClient();
    const bearer = await token(client);
    expect((await create(bearer)).status).toBe(201);
    expect((await create(bearer)).status).toBe(201);
    await expectRule(client, "create-not-repeatable", /without requestedIncidentId/);
    await expectRule(client, "duplicate-incidents", /second incident for caller \+4791234567/);
  });

  it("a refused request sent again unchanged", async () => {
    const client = await newClient();
    const bearer = await token(client);
    for (let i = 0; i < 2; i++)
      expect((await v1(bearer, "POST", "/v1/incidents", { routingMode: "TokenAgency" })).status).toBe(400);
    await expectRule(client, "refused-resent-unchanged", /answered 400 CallerPhoneNumberRequired/);
  });

  it("a retry sooner than Retry-After, and retries without backoff", async () => {
    const client = await newClient();
    const bearer = await token(client);
    await setClientFault({
      ...s.runtime,
      input: { clientId: client.id, surface: "v1", mode: "http-503", count: 4, retryAfterS: 2 },
      createdBy: "test",
    });
    forgetClientFaults(s.runtime.db);
    const id = randomUUID();
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await create(bearer, { requestedIncidentId: id })).status);
    expect(answers).toEqual([503, 503, 503, 503, 201]);
    await expectRule(client, "retry-before-retry-after", /after a 503 .* that asked for 2 s \(Retry-After\)/);
    await expectRule(client, "retry-without-backoff", /5 attempts of the same request after 503s/);
  });

  it("a call's end repeated", async () => {
    const client = await newClient();
    const bearer = await token(client);
    const call = await v1(bearer, "POST", "/v1/calls", {
      callerPhoneNumber: "+4791234567",
      startedAtUtc: new Date(s.runtime.clock.nowMs() - 60_000).toISOString(),
    });
    const { callId } = (await call.json()) as { callId: string };
    expect(
      (await v1(bearer, "POST", `/v1/calls/${callId}/end`, { endedAtUtc: s.runtime.clock.now().toISOString() })).status,
    ).toBe(200);
    const again = await v1(bearer, "POST", `/v1/calls/${callId}/end`, {
      endedAtUtc: new Date(s.runtime.clock.nowMs() + 1000).toISOString(),
    });
    expect(again.status).toBe(409);
    await expectRule(client, "call-end-repeated", /CallAlreadyEnded/);
  });

  it("409s not recovered as the spec says (Repeat handling, rule 4)", async () => {
    const client = await newClient();
    const bearer = await token(client);
    const startedAtUtc = new Date(s.runtime.clock.nowMs() - 120_000).toISOString();
    const first = {
      callerPhoneNumber: "+4791234567",
      startedAtUtc,
      endedAtUtc: new Date(s.runtime.clock.nowMs() - 60_000).toISOString(),
    };
    expect((await v1(bearer, "POST", "/v1/calls", first)).status).toBe(201);
    const other = { ...first, endedAtUtc: new Date(s.runtime.clock.nowMs() - 30_000).toISOString() };
    expect((await v1(bearer, "POST", "/v1/calls", other)).status).toBe(409);
    const third = { ...first, endedAtUtc: new Date(s.runtime.clock.nowMs() - 10_000).toISOString() };
    expect((await v1(bearer, "POST", "/v1/calls", third)).status).toBe(409);
    await expectRule(client, "conflict-recovery", /After 409 CallAlreadyExists .* again with endedAtUtc/);

    const id = randomUUID();
    expect((await create(bearer, { requestedIncidentId: id })).status).toBe(201);
    const differs = { caller: { phoneNumber: "+4799999999" } };
    expect((await create(bearer, { requestedIncidentId: id, ...differs })).status).toBe(409);
    expect((await create(bearer, { requestedIncidentId: id, ...differs, label: "again" })).status).toBe(409);
    await expectRule(client, "conflict-recovery", /IncidentAlreadyExists .* created again instead of continuing/);
  });
});
