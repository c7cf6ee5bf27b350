// Recording a partner client's calls and breaking the platform for it (docs/api-calls.md), over
// real HTTP: what is kept (never a secret or a token: their facts), bounds, what a call caused;
// every fault mode on every surface in the surface's format, its limits, and that a faulted write
// records nothing; a real client library that honours Retry-After beside one that does not.
import { randomUUID } from "node:crypto";
import ky from "ky";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { CAD, NORTH } from "../http/identity/token-test-helpers.ts";
import { callRecorderOf, createCallRecorder, MAX_QUEUED_CALLS } from "./record-calls.ts";
import { clientReport, getCall, listCalls } from "./list-calls.ts";
import { clearClientFaults, setClientFault, type SetClientFaultInput } from "./client-faults.ts";
import { forgetClientFaults } from "./current-faults.ts";
import type { ClientCallInput } from "./call-record.ts";
import { acceptDeclaration, MINIMAL_FLAGS } from "../webhooks/testing/accept-declaration.ts";
import { planDeliveriesOnChange } from "../webhooks/planning/plan-deliveries.ts";
import { subscribeToChanges } from "../incidents/change-record.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const SCOPE = "incident.create incident.update username.required identity.user.signin";
const tokenForm = (extra: Record<string, string> = {}) =>
  new URLSearchParams({
    grant_type: "client_credentials",
    ...CAD,
    agency_context: NORTH,
    username: "dispatcher.north",
    scope: SCOPE,
    ...extra,
  });

async function token(): Promise<string> {
  const res = await fetch(`${s.url}/connect/token`, { method: "POST", body: tokenForm() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

const create = (
  bearer: string,
  body: unknown = { routingMode: "TokenAgency", caller: { phoneNumber: "+4791234567" } },
) =>
  fetch(`${s.url}/v1/incidents`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function recorded() {
  await callRecorderOf(s.runtime).flush();
  return s.runtime.db.clientCall.findMany({ orderBy: { id: "asc" } });
}

async function fault(input: SetClientFaultInput) {
  await clearClientFaults({ db: s.runtime.db });
  await setClientFault({ ...s.runtime, input, createdBy: "test" });
  forgetClientFaults(s.runtime.db);
}

describe("what is recorded", () => {
  it("never a secret, a token or the sign-in query: only their facts", async () => {
    const bearer = await token();
    const res = await create(bearer);
    expect(res.status).toBe(201);
    const { incidentId } = (await res.json()) as { incidentId: string };
    const issued = await fetch(`${s.url}/Account/GetUserSigninToken`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ agencyContext: NORTH, username: "dispatcher.north" }),
    });
    const { token: signin } = (await issued.json()) as { token: string };
    await fetch(
      `${s.url}/Account/LoginUserByToken?token=${signin}&returnUrl=%2Fportal%3Fwhere%3Dreturn-url-${incidentId}`,
      {
        redirect: "manual",
      },
    );
    const rows = await recorded();
    const all = JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v));
    for (const secret of [CAD.client_secret, bearer, signin, decodeURIComponent(signin), bearer.split(".")[2]!])
      expect(all).not.toContain(secret);
    expect(all).not.toContain(`return-url-${incidentId}`);
    const [tokenCall, createCall, signinCall, loginCall] = rows.slice(-4);
    expect(tokenCall).toMatchObject({
      surface: "token",
      operation: "token client_credentials",
      clientId: "partner-cad",
      status: 200,
    });
    expect(tokenCall!.requestBody).toContain("client_secret=%5Bredacted%5D");
    expect(tokenCall!.responseBody).toContain('"access_token":"[access token]"');
    expect(tokenCall!.token).toMatchObject({
      issued: true,
      clientId: "partner-cad",
      agencyContext: NORTH,
    });
    expect((tokenCall!.token as { expiresInS: number }).expiresInS).toBeGreaterThan(3590);
    expect(createCall).toMatchObject({ operation: "POST /v1/incidents", incidentId, changeSeqs: [1], status: 201 });
    expect((createCall!.request as { headers: Record<string, string> }).headers.authorization).toBe("Bearer [token]");
    expect(createCall!.tokenDigest).toBe(tokenCall!.tokenDigest);
    expect(signinCall!.responseBody).toContain('"token":"[sign-in token]"');
    expect(loginCall).toMatchObject({
      surface: "account",
      operation: "GET /Account/LoginUserByToken",
      clientId: "partner-cad",
    });
    expect(loginCall!.request).toMatchObject({ query: {}, signIn: { tokenPresent: true, encodedTwice: false } });
  });

  it("links a call to the changes it recorded and the deliveries they planned", async () => {
    // The engine's planner, as a workbench process subscribes it, for a receiver that declared itself.
    const unsubscribe = subscribeToChanges(planDeliveriesOnChange);
    await acceptDeclaration(s.runtime.db, ["north-psap"], MINIMAL_FLAGS, s.runtime.clock.now());
    const bearer = await token();
    const { incidentId } = (await (await create(bearer)).json()) as { incidentId: string };
    await fetch(`${s.url}/v1/incidents/${incidentId}/label`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ label: "Fall, elderly" }),
    });
    const patch = (await recorded()).at(-1)!;
    expect(patch).toMatchObject({ operation: "PATCH /v1/incidents/{incidentId}/label", incidentId, changeSeqs: [2] });
    const detail = await getCall({ ...s.runtime, id: String(patch.id), withBodies: true });
    expect(detail.changes).toEqual([expect.objectContaining({ seq: 2, kind: expect.stringMatching(/label/i) })]);
    expect(detail.deliveries.length).toBeGreaterThan(0);
    expect(detail.deliveries.every((d) => d.changeSeq === 2)).toBe(true);
    const withoutBodies = await getCall({ ...s.runtime, id: String(patch.id), withBodies: false });
    expect(withoutBodies).toMatchObject({ requestBody: null, responseBody: null, bodies: false });
    unsubscribe();
  });

  it("cuts a body past 64 KiB and says so; marks the Partner console's calls", async () => {
    const bearer = await token();
    await create(bearer, {
      routingMode: "TokenAgency",
      caller: { phoneNumber: "+4791234567" },
      label: "x".repeat(70_000),
    });
    await fetch(`${s.url}/v1/agency/info`, {
      headers: { authorization: `Bearer ${bearer}`, "x-workbench-console": "1" },
    });
    const [big, console] = (await recorded()).slice(-2);
    expect(big!.status).toBe(413);
    expect((big!.request as { bodyBytes: number }).bodyBytes).toBeGreaterThan(64 * 1024);
    expect(console).toMatchObject({ console: true });
  });

  it("keeps a call that carried NUL bytes, refused by the platform, with U+FFFD in their place", async () => {
    const res = await fetch(`${s.url}/connect/token`, { method: "POST", body: tokenForm({ client_id: "cad\u0000x" }) });
    expect(res.status).toBe(400);
    const kept = (await recorded()).at(-1)!;
    expect(kept).toMatchObject({ status: 400, problemCode: "invalid_request", clientId: "cad\ufffdx" });
  });

  it("drops what does not fit a full queue, counts it, and writes the rest", async () => {
    const recorder = createCallRecorder({ db: s.runtime.db, logger: s.runtime.logger });
    const { id: _id, ...sample } = (await recorded())[0]!;
    const call = { ...sample, receivedAt: s.runtime.clock.now() } as unknown as ClientCallInput;
    let refused = 0;
    // One batch of 500 leaves the queue for the database at once; the rest waits while it is written.
    for (let i = 0; i < MAX_QUEUED_CALLS + 1_000; i++) if (!recorder.record(call)) refused++;
    expect(refused).toBeGreaterThan(0);
    await recorder.flush();
    expect(recorder.dropped()).toBe(refused);
    const list = await listCalls({ ...s.runtime, input: { limit: 1 } });
    expect(list.dropped.count).toBe(refused);
  });
});

describe("faults, for the client", () => {
  it("answer in each surface's own format, with Retry-After, and a faulted write records nothing", async () => {
    const bearer = await token();
    await fault({ clientId: "partner-cad", surface: "token", mode: "http-503", count: 1, retryAfterS: 3 });
    const refused = await fetch(`${s.url}/connect/token`, { method: "POST", body: tokenForm() });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(await refused.json()).toMatchObject({ error: "temporarily_unavailable" });
    expect((await fetch(`${s.url}/connect/token`, { method: "POST", body: tokenForm() })).status).toBe(200); // count spent

    await fault({
      clientId: "partner-cad",
      surface: "v1",
      operation: "POST /v1/incidents",
      mode: "http-429",
      count: 1,
    });
    const before = await s.runtime.db.incident.count();
    const limited = await create(bearer);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toBe("application/problem+json");
    expect(await limited.json()).toMatchObject({ code: "TooManyRequests", status: 429 });
    expect(limited.headers.get("retry-after")).toBe("5");
    expect(await s.runtime.db.incident.count()).toBe(before);

    await fault({ surface: "v1", mode: "http-500", count: 1 });
    const failed = await create(bearer);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ code: "InternalServerError" });
    expect(await s.runtime.db.incident.count()).toBe(before);

    await fault({ clientId: "partner-cad", surface: "account", mode: "http-503", count: 1 });
    const account = await fetch(`${s.url}/Account/GetUserSigninToken`, {
      method: "POST",
      headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" },
      body: JSON.stringify({ agencyContext: NORTH, username: "dispatcher.north" }),
    });
    expect(account.status).toBe(503);
    expect(await account.json()).toMatchObject({ type: expect.stringMatching(/\/errors\/InternalServerError$/) });
    const marked = (await recorded()).filter((r) => r.fault !== null).map((r) => [r.surface, r.fault, r.status]);
    expect(marked.slice(-4)).toEqual([
      ["token", "http-503", 503],
      ["v1", "http-429", 429],
      ["v1", "http-500", 500],
      ["account", "http-503", 503],
    ]);
  });

  it("a reset drops the connection; slow adds latency and lets the platform answer", async () => {
    const bearer = await token();
    await fault({ surface: "v1", mode: "reset", count: 1 });
    await expect(create(bearer)).rejects.toThrow();
    await fault({ surface: "v1", mode: "slow:300", count: 1 });
    const started = performance.now();
    expect((await create(bearer)).status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const [reset, slow] = (await recorded()).filter((r) => r.fault).slice(-2);
    expect([reset!.fault, reset!.status, slow!.fault, slow!.status]).toEqual(["reset", 0, "slow:300", 201]);
  });

  it("ends after its count or its time, and only for its client; a percentage answers about that share", async () => {
    const bearer = await token();
    await fault({ clientId: "someone-else", surface: "v1", mode: "http-500" });
    expect((await create(bearer)).status).toBe(201);
    await fault({ surface: "v1", mode: "http-500", for: "10m" });
    expect((await create(bearer)).status).toBe(500);
    await s.withClockAhead(11 * 60_000, async () => {
      forgetClientFaults(s.runtime.db);
      expect((await create(bearer)).status).toBe(201);
    });
    await fault({ surface: "v1", mode: "http-500", percent: 50 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await create(bearer)).status);
    const failed = statuses.filter((x) => x === 500).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(35);
    await clearClientFaults({ db: s.runtime.db });
    forgetClientFaults(s.runtime.db);
  });

  it("refuses a bad fault with the field named", async () => {
    for (const [input, field] of [
      [{ surface: "v2", mode: "http-503" }, "surface"],
      [{ surface: "v1", mode: "explode" }, "mode"],
      [{ surface: "v1", mode: "http-503", count: 0 }, "count"],
      [{ surface: "v1", mode: "http-503", percent: 101 }, "percent"],
      [{ surface: "v1", mode: "http-503", for: "2d" }, "for"],
      [{ surface: "v1", mode: "http-503", retryAfterS: -1 }, "retryAfterS"],
    ] as const)
      await expect(setClientFault({ ...s.runtime, input, createdBy: "t" })).rejects.toMatchObject({
        code: "ValidationFailed",
        errors: [{ field }],
      });
  });
});

describe("a real client library under an injected 503 with Retry-After", () => {
  it("ky, which honours Retry-After, gets a clean report; a client that does not hears of it", async () => {
    const { createClient } = await import("../identity/manage-clients.ts");
    const make = async (id: string) =>
      (
        await createClient({
          ...s.runtime,
          input: {
            clientId: id,
            displayName: id,
            scopes: ["agency.read"],
            agencyIds: [NORTH],
            accessTokenLifetimeS: 3600,
          },
        })
      ).clientSecret;
    const form = (id: string, secret: string) =>
      new URLSearchParams({
        grant_type: "client_credentials",
        client_id: id,
        client_secret: secret,
        agency_context: NORTH,
        scope: "agency.read",
      });

    const polite = await make(`ky-${randomUUID().slice(0, 6)}`);
    const politeId = (await s.runtime.db.client.findFirstOrThrow({ where: { id: { startsWith: "ky-" } } })).id;
    await fault({ clientId: politeId, surface: "token", mode: "http-503", count: 2, retryAfterS: 1 });
    const got = await ky
      .post(`${s.url}/connect/token`, {
        body: form(politeId, polite),
        retry: { limit: 3, methods: ["post"], statusCodes: [503], afterStatusCodes: [503] },
      })
      .json<{ access_token: string }>();
    expect(got.access_token).toBeTruthy();
    const politeReport = await (async () => {
      await callRecorderOf(s.runtime).flush();
      return clientReport({ ...s.runtime, clientId: politeId, sinceMs: s.runtime.clock.nowMs() - 600_000 });
    })();
    expect(politeReport.calls).toBe(3);
    expect(politeReport.verdict).toBe("clean");

    const impatientId = `naive-${randomUUID().slice(0, 6)}`;
    const impatient = await make(impatientId);
    await fault({ clientId: impatientId, surface: "token", mode: "http-503", count: 2, retryAfterS: 1 });
    let status = 0;
    for (let i = 0; i < 3 && status !== 200; i++)
      status = (await fetch(`${s.url}/connect/token`, { method: "POST", body: form(impatientId, impatient) })).status;
    expect(status).toBe(200);
    await callRecorderOf(s.runtime).flush();
    const impatientReport = await clientReport({
      ...s.runtime,
      clientId: impatientId,
      sinceMs: s.runtime.clock.nowMs() - 600_000,
    });
    expect(impatientReport.rules.map((r) => r.rule)).toContain("retry-before-retry-after");
    await clearClientFaults({ db: s.runtime.db });
    forgetClientFaults(s.runtime.db);
  });
});
