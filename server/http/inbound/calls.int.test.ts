// Black-box: POST /v1/calls (repeat rules 3–4) and POST /v1/calls/{callId}/end.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { seededTokens } from "../../testing/inbound-tokens.ts";
import { inboundClient } from "../../testing/inbound-client.ts";

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

const report = (body: object, token = t.northApp) => call("POST", "/v1/calls", { token, body });

describe("POST /v1/calls", () => {
  it("201 creates, 200 repeats with the same body, 409 when the repeat sends another end time", async () => {
    const key = { callerPhoneNumber: "+4790000001", startedAtUtc: "2026-11-22T08:00:00Z" };
    const first = await report({ ...key, endedAtUtc: "2026-11-22T08:05:00Z" });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      callId: expect.any(String),
      callerPhoneNumber: "+4790000001",
      startedAtUtc: "2026-11-22T08:00:00.000Z",
      endedAtUtc: "2026-11-22T08:05:00.000Z",
    });
    const repeat = await report({ ...key, startedAtUtc: "2026-11-22T09:00:00+01:00" });
    expect(repeat).toMatchObject({ status: 200, body: first.body });
    expect((await report({ ...key, endedAtUtc: "2026-11-22T08:05:00.000Z" })).status).toBe(200);
    const conflict = await report({ ...key, endedAtUtc: "2026-11-22T08:06:00Z" });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("CallAlreadyExists");
    // A 409 changes nothing; recovery (rule 4): repeat without endedAtUtc.
    expect(await report(key)).toMatchObject({ status: 200, body: first.body });
  });

  it("a repeat never rewrites: it does not end an open call", async () => {
    const key = { callerPhoneNumber: "+4790000002", startedAtUtc: "2026-11-22T08:00:00Z" };
    const first = await report(key);
    const repeat = await report({ ...key, endedAtUtc: "2026-11-22T08:09:00Z" });
    expect(repeat).toMatchObject({ status: 200, body: { ...first.body, endedAtUtc: null } });
  });

  it("keys per agency: the same number and start in another agency is another call", async () => {
    const key = { callerPhoneNumber: "+4790000003", startedAtUtc: "2026-11-22T08:00:00Z" };
    const north = await report(key);
    const ems = await report(key, t.ems);
    expect([north.status, ems.status]).toEqual([201, 201]);
    expect(ems.body.callId).not.toBe(north.body.callId);
  });

  it("concurrent repeats of one key: exactly one 201, the rest 200 with the same body", async () => {
    const key = { callerPhoneNumber: "+4790000004", startedAtUtc: "2026-11-22T08:30:00Z" };
    const answers = await Promise.all(Array.from({ length: 24 }, () => report(key)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(23);
    expect(new Set(answers.map((a) => a.body.callId)).size).toBe(1);
  });
});

describe("POST /v1/calls/{callId}/end", () => {
  it("ends once; a second end is 409 CallAlreadyEnded and changes nothing", async () => {
    const { body: created } = await report({ callerPhoneNumber: "+4790000005", startedAtUtc: "2026-11-22T08:00:00Z" });
    const ended = await call("POST", `/v1/calls/${created.callId}/end`, {
      token: t.northApp,
      body: { endedAtUtc: "2026-11-22T08:07:00Z" },
    });
    expect(ended).toMatchObject({ status: 200, body: { ...created, endedAtUtc: "2026-11-22T08:07:00.000Z" } });
    const again = await call("POST", `/v1/calls/${created.callId}/end`, {
      token: t.northApp,
      body: { endedAtUtc: "2026-11-22T08:08:00Z" },
    });
    expect(again).toMatchObject({ status: 409, body: { code: "CallAlreadyEnded" } });
    expect(
      (await report({ callerPhoneNumber: "+4790000005", startedAtUtc: "2026-11-22T08:00:00Z" })).body.endedAtUtc,
    ).toBe("2026-11-22T08:07:00.000Z");
  });

  it("an end before the start is ValidationFailed, on report and on end", async () => {
    const bad = await report({
      callerPhoneNumber: "+4790000007",
      startedAtUtc: "2026-11-22T08:00:00Z",
      endedAtUtc: "2026-11-22T07:59:00Z",
    });
    expect(bad).toMatchObject({ status: 400, body: { code: "ValidationFailed", errors: [{ field: "endedAtUtc" }] } });
    const { body: created } = await report({ callerPhoneNumber: "+4790000007", startedAtUtc: "2026-11-22T08:00:00Z" });
    const early = await call("POST", `/v1/calls/${created.callId}/end`, {
      token: t.northApp,
      body: { endedAtUtc: "2026-11-22T07:00:00Z" },
    });
    expect(early).toMatchObject({ status: 400, body: { code: "ValidationFailed", errors: [{ field: "endedAtUtc" }] } });
  });

  it("404 CallNotFound for another agency's call, an unknown id and a non-UUID", async () => {
    const { body: created } = await report({ callerPhoneNumber: "+4790000006", startedAtUtc: "2026-11-22T08:00:00Z" });
    for (const [id, token] of [
      [created.callId, t.ems],
      ["6f9d1c1e-0000-4000-8000-000000000000", t.northApp],
      ["nope", t.northApp],
    ] as const) {
      expect(
        await call("POST", `/v1/calls/${id}/end`, { token, body: { endedAtUtc: "2026-11-22T08:07:00Z" } }),
      ).toMatchObject({ status: 404, body: { code: "CallNotFound" } });
    }
  });
});
