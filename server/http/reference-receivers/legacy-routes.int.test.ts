// Black-box: the embedded receiver in v2 mode (seeded fire-rescue, /about 2.0)
// validating PsapConnector tokens per route scope and applying v2 bodies; and a
// 3.x receiver still refusing the legacy credential at /about.
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintPsapConnectorToken, mintPublisherToken } from "../../identity/service-tokens.ts";
import { whenReceiverProcessingIdle } from "../../reference-receiver/process-deliveries.ts";
import { nextProcessed } from "../../reference-receiver/testing/deliver.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { goldenHistory, sequentialIds } from "../../webhook-contracts/testing/golden-history.ts";
import { NEW_LANE } from "../../webhooks/planning/plan-events.ts";
import { planLegacyEvents } from "../../webhooks/planning/plan-legacy-events.ts";
import { readReplica } from "../../reference-receiver/list-receivers.ts";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";
const NORTH = "0b0c5b52-1c0e-4a57-9a57-000000000001";
let s: TestServer;
let base: string;
beforeAll(async () => {
  s = await startTestServer();
  base = `${s.url}/receivers/fire-rescue`;
});
afterAll(async () => {
  await whenReceiverProcessingIdle();
  await s.close();
});

const psap = async (scope: string[], agency = FIRE) =>
  (await mintPsapConnectorToken(s.runtime, agency, scope)).accessToken;
const send = (method: string, path: string, token: string | null, body: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

// The golden history's first events, re-pointed at a fresh incident id.
const [created] = goldenHistory();
const plan = planLegacyEvents({ change: created!, lane: NEW_LANE, major: 2, newId: sequentialIds() });
const createBody = plan.events[0]!.body;

describe("embedded receiver, v2 mode", () => {
  it("/about 2.0: accepts PsapConnector with psap.read (and Publisher); refuses a PsapConnector token without psap.read", async () => {
    const ok = await fetch(`${base}/about`, { headers: { authorization: `Bearer ${await psap(["psap.read"])}` } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { version: string }).version).toBe("2.0");
    expect(
      (
        await fetch(`${base}/about`, {
          headers: { authorization: `Bearer ${(await mintPublisherToken(s.runtime, FIRE)).accessToken}` },
        })
      ).status,
    ).toBe(200);
    expect(
      (await fetch(`${base}/about`, { headers: { authorization: `Bearer ${await psap(["psap.incident"])}` } })).status,
    ).toBe(401);
  });

  it("a 3.x receiver (north-psap) still answers the legacy credential 401 at /about", async () => {
    expect(
      (
        await fetch(`${s.url}/receivers/north-psap/about`, {
          headers: { authorization: `Bearer ${await psap(["psap.read"], NORTH)}` },
        })
      ).status,
    ).toBe(401);
  });

  it("checks each route's psap.* scope, the agency audience and the identity, recording each refusal", async () => {
    const refusals: Array<[string, string | null]> = [
      ["no token", null],
      ["Publisher token on a v2 route", (await mintPublisherToken(s.runtime, FIRE)).accessToken],
      ["scope of another route", await psap(["psap.incident.close"])],
      ["another agency's audience", await psap(["psap.incident"], NORTH)],
      [
        "sub/client_id not PsapConnector",
        await new SignJWT({
          sub: "Intruder",
          client_id: "Intruder",
          scope: "psap.incident",
          aud: `urn:service:agency:${FIRE}`,
        })
          .setProtectedHeader({ alg: "RS256", kid: (await s.runtime.keys.current()).kid })
          .setIssuer(s.runtime.env.AUTH_URL)
          .setIssuedAt()
          .setExpirationTime("10m")
          .sign((await s.runtime.keys.current()).privateKey),
      ],
    ];
    for (const [why, token] of refusals)
      expect((await send("POST", "/v2/incident", token, createBody)).status, why).toBe(401);
    const recorded = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "fire-rescue", outcome: "rejected-token", path: "/v2/incident" },
      orderBy: { id: "asc" },
    });
    expect(recorded.map((r) => r.detail)).toEqual([
      "no Bearer token",
      expect.stringMatching(/aud/),
      "scope must contain psap.incident",
      expect.stringMatching(/aud/),
      "sub must be PsapConnector",
    ]);
  });

  it("accepts a v2 create with psap.incident, answers 200, dedupes on the body's requestId, and builds the v2 replica", async () => {
    const token = await psap(["psap.incident"]);
    const processed = nextProcessed((e) => e.integrationKey === "fire-rescue" && e.incidentId === created!.incidentId);
    expect((await send("POST", "/v2/incident", token, createBody)).status).toBe(200);
    await processed;
    const again = await send("POST", "/v2/incident", token, createBody);
    expect(await again.json()).toMatchObject({ received: true, duplicate: true });
    const record = await s.runtime.db.receiverRecord.findFirstOrThrow({
      where: { integrationKey: "fire-rescue", outcome: "accepted", incidentId: created!.incidentId },
    });
    expect([record.serviceRequestId, record.duplicates, record.route, record.isTest, record.anomalies]).toEqual([
      createBody.requestId,
      1,
      "v2 incident",
      true,
      [],
    ]);
    const replica = (await readReplica({ db: s.runtime.db, key: "fire-rescue", incidentId: created!.incidentId }))!;
    expect([replica.purpose, replica.fullSources]).toEqual(["Test", ["MobileApp", "Manual"]]);
    expect(replica.snapshot).toEqual((createBody as { incident: unknown }).incident);
  });

  it("an unknown v2 route is 404; an unprocessable v2 body is still recorded and answered 200, flagged", async () => {
    expect(
      (await send("POST", `/v2/incident/${randomUUID()}/teleport`, await psap(["psap.incident"]), {})).status,
    ).toBe(404);
    const processed = nextProcessed((e) => e.integrationKey === "fire-rescue" && e.incidentId === created!.incidentId);
    const res = await send(
      "PATCH",
      `/v2/incident/${created!.incidentId}/battery-level`,
      await psap(["psap.incident.device"]),
      { requestId: randomUUID(), requestTimeStampUtc: "2026-11-22T06:00:00.000Z", batteryLevel: "full" },
    );
    expect(res.status).toBe(200);
    expect((await processed).anomalies).toEqual([expect.stringMatching(/^invalid-body:batteryLevel/)]);
  });
});
