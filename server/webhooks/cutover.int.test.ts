// The v2 → v3 cutover rehearsal (Versioning rule 3), end to end over real HTTP: the
// seeded fire-rescue integration runs v2 against its embedded receiver; the
// receiver serves v2 and v3 side by side; its /about switches to 3.x while a v2
// event is still queued; the next discovery moves the integration to v3. Every
// change reaches the receiver exactly once, in order, and its replica ends
// equal to the platform's incident.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PSAP_CONNECTOR, psapConnectorAudience } from "../identity/service-tokens.ts";
import { decodeJwt } from "jose";
import { addEnteredLocation, addMeasuredLocation } from "../incidents/caller-track.ts";
import { closeIncident } from "../incidents/close-incident.ts";
import { createIncident } from "../incidents/create-incident.ts";
import { setIncidentText } from "../incidents/set-incident-text.ts";
import { setReceiverFault } from "../receiver/integration-faults.ts";
import { setReceiverCapabilities } from "../receiver/receiver-capabilities.ts";
import { whenReceiverProcessingIdle } from "../receiver/process-deliveries.ts";
import { diffReplica } from "../receiver/diff-replica.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { inProcessHandler, serveInProcess } from "../platform/network/in-process-origins.ts";
import { renderIncidentV2 } from "./contracts/v2/render-incident.ts";
import { LEGACY_ROUTES, matchLegacyRoute } from "./contracts/v2/routes.ts";
import { rediscoverIntegration } from "./admin/manage-integrations.ts";
import { startWebhookEngine } from "./start-webhook-engine.ts";
import { waitForEvents } from "./testing/webhook-harness.ts";
import { readIncident } from "../incidents/read-incident.ts";
import { readReplica } from "../receiver/list-receivers.ts";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";
const KEY = "fire-rescue";
let s: TestServer;
let engine: Awaited<ReturnType<typeof startWebhookEngine>>;

/** Every request the engine sent to the embedded receivers, as sent (their tokens are stored nowhere). */
const sent: Array<{ method: string; path: string; authorization: string | null }> = [];
let restoreHandler = () => {};

beforeAll(async () => {
  s = await startTestServer();
  const origin = new URL(s.runtime.env.PUBLIC_URL).origin;
  const handler = inProcessHandler(origin)!;
  serveInProcess(origin, (request, bindings) => {
    const url = new URL(request.url);
    sent.push({ method: request.method, path: url.pathname, authorization: request.headers.get("authorization") });
    return handler(request, bindings);
  });
  restoreHandler = () => serveInProcess(origin, handler);
  const discovered = waitForEvents(
    "integration:discovered",
    1,
    (e) => e.integrationKey === KEY && e.status === "active",
  );
  engine = await startWebhookEngine(s.runtime);
  await discovered;
});
afterAll(async () => {
  restoreHandler();
  await engine?.stop();
  await whenReceiverProcessingIdle();
  await s?.close();
});

const op = (o: { runtime: TestServer["runtime"]; incidentId: string }) => ({
  db: o.runtime.db,
  clock: o.runtime.clock,
  incidentId: o.incidentId,
  actor: "cutover-test",
});
const delivered = (n: number) => waitForEvents("delivery:delivered", n, (e) => e.integrationKey === KEY, 20_000);
const platformSnapshot = async (id: string) => (await readIncident({ db: s.runtime.db, incidentId: id }))!.snapshot;
const replica = async (id: string) => (await readReplica({ db: s.runtime.db, key: KEY, incidentId: id }))!;

describe("cutover rehearsal: fire-rescue from v2 to v3", () => {
  let incidentId = "";

  it("the seeded fire-rescue integration runs v2: /about 2.0 accepted with the PsapConnector credential", async () => {
    const caps = await s.runtime.db.webhookCapabilities.findUniqueOrThrow({ where: { integrationKey: KEY } });
    expect([caps.status, caps.version, caps.majorVersion, caps.credential]).toEqual([
      "active",
      "2.0",
      2,
      "PsapConnector",
    ]);
  });

  it("delivers v2 routes and bodies with PsapConnector tokens carrying each route's psap.* scope; the receiver's v2 replica follows", async () => {
    const done = delivered(5);
    const { incident } = await createIncident({
      db: s.runtime.db,
      clock: s.runtime.clock,
      portalUrl: s.url,
      purpose: "Demo",
      routingMode: "TokenAgency",
      createdByAgencyId: FIRE,
      agencyIds: [FIRE],
      phoneNumber: "+358401112223",
      enteredLocation: { latitude: 60.2, longitude: 24.9 },
      label: "Smoke",
      actor: "cutover-test",
    });
    incidentId = incident.id;
    await setIncidentText({ ...op({ runtime: s.runtime, incidentId }), field: "label", value: "Smoke, 3rd floor" });
    await addMeasuredLocation({
      ...op({ runtime: s.runtime, incidentId }),
      source: "MobileApp",
      fix: { latitude: 60.21, longitude: 24.91, accuracy: 9 },
    });
    await addMeasuredLocation({
      ...op({ runtime: s.runtime, incidentId }),
      source: "MobileApp",
      fix: { latitude: 60.22, longitude: 24.92, accuracy: 7 },
    });
    const events = await done;
    expect(events.map(([e]) => `${e.method} ${e.path.replace(incidentId, "{id}")}`)).toEqual([
      "POST /v2/incident",
      "PUT /v2/incident/{id}/position",
      "POST /v2/incident",
      "PUT /v2/incident/{id}/position",
      "POST /v2/incident/{id}/position",
    ]);
    const attempts = await s.runtime.db.webhookAttempt.findMany({
      where: { delivery: { integrationKey: KEY } },
      include: { delivery: true },
      orderBy: { id: "asc" },
    });
    for (const a of attempts) {
      expect(a.requestHeaders).not.toHaveProperty("service-request-id"); // v1/v2: in the body instead
      expect((a.delivery.body as { requestId: string }).requestId).toBe(a.delivery.requestId);
    }
    await whenReceiverProcessingIdle();
    const records = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: KEY, incidentId },
      orderBy: { id: "asc" },
    });
    expect(records.map((r) => [r.outcome, r.anomalies])).toEqual(records.map(() => ["accepted", []]));
    const stored = await replica(incidentId);
    expect(stored.purpose).toBe("Real or Demo");
    expect(stored.snapshot).toEqual(renderIncidentV2(await platformSnapshot(incidentId), s.runtime.clock.now()));
  });

  it("tokens: aud urn:service:agency:{id}, sub = client_id = PsapConnector, the route's scope", async () => {
    // The tokens the engine actually sent with each v2 delivery above, decoded.
    const v2 = sent.filter((r) => r.path.startsWith(`/receivers/${KEY}/v2/`));
    expect(v2.length).toBeGreaterThanOrEqual(5);
    for (const r of v2) {
      const route = matchLegacyRoute(r.method, r.path.slice(`/receivers/${KEY}`.length))!;
      const claims = decodeJwt(r.authorization!.replace(/^Bearer /, ""));
      expect({
        route: `${r.method} ${r.path}`,
        claims: [claims.aud, claims.sub, claims.client_id, claims.scope],
      }).toEqual({
        route: `${r.method} ${r.path}`,
        claims: [psapConnectorAudience(FIRE), PSAP_CONNECTOR, PSAP_CONNECTOR, LEGACY_ROUTES[route.key].scope],
      });
    }
    expect(await s.runtime.db.receiverRecord.count({ where: { integrationKey: KEY, outcome: "rejected-token" } })).toBe(
      0,
    );
  });

  it("switching /about to 3.x while a v2 event is queued: that event still goes to its v2 route, then v3 starts with the whole incident; nothing lost or doubled", async () => {
    // A v2 event held in the queue by a receiver outage across the switch.
    await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: KEY, mode: "http-503" });
    const failed = waitForEvents("delivery:attempted", 1, (e) => e.integrationKey === KEY && e.status === 503);
    await setIncidentText({
      ...op({ runtime: s.runtime, incidentId }),
      field: "summary",
      value: "Two residents inside",
    });
    await failed;
    // Listening from here on: the held event's retry may come as soon as the outage ends.
    const done = delivered(1 + 3 + 1 + 1); // the queued v2 summary; v3 create + PUT Entered + PUT MobileApp; an append; closed

    // The outage ends as the receiver's /about switches to 3.x; the held v2 event's retry is a second away.
    await setReceiverCapabilities({ db: s.runtime.db, clock: s.runtime.clock, key: KEY, version: "3.0" });
    await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: KEY, mode: "ok" });
    const next = await rediscoverIntegration({ runtime: s.runtime, key: KEY });
    expect([next.status, next.majorVersion, next.credential]).toEqual(["active", 3, "Publisher"]);

    await addEnteredLocation({
      ...op({ runtime: s.runtime, incidentId }),
      point: { latitude: 60.23, longitude: 24.93 },
    });
    await addMeasuredLocation({
      ...op({ runtime: s.runtime, incidentId }),
      source: "MobileApp",
      fix: { latitude: 60.24, longitude: 24.94, accuracy: 5 },
    });
    await closeIncident({ ...op({ runtime: s.runtime, incidentId }) });
    s.runtime.clock.setOffset(s.runtime.clock.offsetMs + 60_000); // the held retry comes due at once
    const events = await done;
    expect(events.map(([e]) => `${e.method} ${e.path.replace(incidentId, "{id}")}`)).toEqual([
      "POST /v2/incident",
      "POST /v3/incidents",
      "PUT /v3/incidents/{id}/caller/track",
      "PUT /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/closed",
    ]);

    // Exactly once: every delivery of this incident delivered, each requestId accepted once by the receiver.
    const rows = await s.runtime.db.webhookDelivery.findMany({
      where: { integrationKey: KEY, incidentId },
      orderBy: { id: "asc" },
    });
    expect(rows.every((r) => r.state === "delivered")).toBe(true);
    await whenReceiverProcessingIdle();
    const accepted = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: KEY, incidentId, outcome: "accepted" },
      orderBy: { id: "asc" },
    });
    expect(accepted.map((r) => r.serviceRequestId)).toEqual(rows.map((r) => r.requestId));
    expect(accepted.map((r) => r.anomalies).flat()).toEqual([]);
    // In order: every v2 record before the first v3 one.
    const versions = accepted.map((r) => (matchLegacyRoute(r.method, r.path) ? 2 : 3));
    expect(versions).toEqual([...versions].sort());

    // The receiver's replica is now the v3 incident, equal to the platform's.
    const stored = await replica(incidentId);
    const platform = await platformSnapshot(incidentId);
    expect(diffReplica(stored.snapshot, platform)).toEqual([]);
    expect(stored.closedAtUtc).not.toBeNull();
    expect(platform.summary).toBe("Two residents inside");
    // Every event's token was accepted: PsapConnector on the v2 routes, Publisher on the v3 ones. The only
    // refusals are /about's: a 3.x receiver answers the legacy credential 401, then discovery uses Publisher.
    const refused = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: KEY, outcome: "rejected-token" },
    });
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.path === "/about")).toBe(true);
  });
});
