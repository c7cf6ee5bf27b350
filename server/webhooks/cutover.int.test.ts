// The cutover rehearsals (Versioning rule 3, Delivery rule 7, decision 0049), end to end over real
// HTTP: the seeded fire-rescue integration runs v2 against its embedded receiver, which serves
// every contract; this file stands in front of it for what a partner's receiver does around a
// cutover — an outage of one contract's routes, those routes removed (404), a request held in
// flight. Its /about switches major version while events of the old one are queued (or in flight):
// once the new declaration is accepted no event of the old contract reaches the receiver any more,
// the queued ones are superseded, and the incident arrives as the create-and-track sequence of its
// current snapshot under the new contract, then the events of later changes, without a stall. Its
// replica ends equal to the platform's incident. v2 → v3, v3 → v2, and v2 → v1 with an event in flight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PSAP_CONNECTOR, PUBLISHER, psapConnectorAudience, publisherAudience } from "../identity/service-tokens.ts";
import { decodeJwt } from "jose";
import { addEnteredLocation, addMeasuredLocation } from "../incidents/caller-track.ts";
import { closeIncident } from "../incidents/close-incident.ts";
import { createIncident } from "../incidents/create-incident.ts";
import { setIncidentText } from "../incidents/set-incident-text.ts";
import { setReceiverCapabilities } from "../reference-receiver/receiver-capabilities.ts";
import { whenReceiverProcessingIdle } from "../reference-receiver/process-deliveries.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { inProcessHandler, serveInProcess } from "../platform/network/in-process-origins.ts";
import { renderIncidentV2 } from "../webhook-contracts/v2/render-incident.ts";
import { LEGACY_ROUTES, matchLegacyRoute } from "../webhook-contracts/v2/routes.ts";
import { describeDeliveryStatus } from "./admin/describe-delivery-status.ts";
import { inspectDeliveries } from "./admin/inspect-deliveries.ts";
import { rediscoverIntegration } from "./admin/manage-integrations.ts";
import { startWebhookEngine } from "./start-webhook-engine.ts";
import { waitForEvents } from "./testing/webhook-harness.ts";
import { webhookEvents, type WebhookEvents } from "./webhook-events.ts";
import { readIncident } from "../incidents/read-incident.ts";
import { readReplica } from "../reference-receiver/list-receivers.ts";

const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";
const KEY = "fire-rescue";
const RECEIVER_PATH = `/receivers/${KEY}`;
let s: TestServer;
let engine: Awaited<ReturnType<typeof startWebhookEngine>>;

/**
 * Every request the engine sent to the embedded receivers, as sent (their tokens are stored
 * nowhere), and, in order among them, each acceptance of fire-rescue's declaration (`accepted`).
 */
type Sent = { method: string; path: string; authorization: string | null; accepted?: string };
const sent: Sent[] = [];
/**
 * What fire-rescue's receiver does with each contract's event routes: serve them, answer 503 (an
 * outage), answer 404 (removed after its cutover), or hold a request until `release` (in flight).
 */
type RouteMode = "serve" | "down" | "removed" | "hold";
const routes: Record<number, RouteMode> = { 1: "serve", 2: "serve", 3: "serve" };
let release: (() => void) | null = null;
let onHeld: (() => void) | null = null;
let restoreHandler = () => {};
const onDiscovered = (e: WebhookEvents["integration:discovered"][0]) => {
  if (e.integrationKey === KEY && e.status === "active" && e.version)
    sent.push({ method: "", path: "", authorization: null, accepted: e.version });
};

beforeAll(async () => {
  s = await startTestServer();
  const origin = new URL(s.runtime.env.PUBLIC_URL).origin;
  const handler = inProcessHandler(origin)!;
  serveInProcess(origin, async (request, bindings) => {
    const url = new URL(request.url);
    sent.push({ method: request.method, path: url.pathname, authorization: request.headers.get("authorization") });
    const major = contractOf(url.pathname);
    const mode = major === null ? "serve" : routes[major];
    if (mode === "down") return new Response("outage", { status: 503 });
    if (mode === "removed") return new Response(null, { status: 404 });
    if (mode === "hold") {
      await new Promise<void>((resolve) => {
        release = resolve;
        onHeld?.();
      });
      return new Response(null, { status: 404 }); // answered once the cutover removed the route
    }
    return handler(request, bindings);
  });
  restoreHandler = () => serveInProcess(origin, handler);
  webhookEvents().on("integration:discovered", onDiscovered);
  const discovered = waitForEvents(
    "integration:discovered",
    1,
    (e) => e.integrationKey === KEY && e.status === "active",
  );
  engine = await startWebhookEngine(s.runtime);
  await discovered;
});
afterAll(async () => {
  release?.();
  webhookEvents().off("integration:discovered", onDiscovered);
  restoreHandler();
  await engine?.stop();
  await whenReceiverProcessingIdle();
  await s?.close();
});

/** The contract of a request to fire-rescue's event routes (v1/v2/v3), null for /about and other receivers. */
function contractOf(path: string): number | null {
  const m = new RegExp(`^${RECEIVER_PATH}/v([123])/`).exec(path);
  return m ? Number(m[1]) : null;
}
/** Event requests sent to fire-rescue after the first acceptance of `version` from `from` on (index into `sent`). */
function sentAfterAcceptance(version: string, from: number): Sent[] {
  const at = sent.findIndex((r, n) => n >= from && r.accepted === version);
  expect(at, `acceptance of ${version}`).toBeGreaterThanOrEqual(0);
  return sent.slice(at + 1).filter((r) => contractOf(r.path) !== null);
}

const op = (o: { runtime: TestServer["runtime"]; incidentId: string }) => ({
  db: o.runtime.db,
  clock: o.runtime.clock,
  incidentId: o.incidentId,
  actor: "cutover-test",
});
const delivered = (n: number) => waitForEvents("delivery:delivered", n, (e) => e.integrationKey === KEY, 20_000);
const platformSnapshot = async (id: string) => (await readIncident({ db: s.runtime.db, incidentId: id }))!.snapshot;
const replica = async (id: string) => (await readReplica({ db: s.runtime.db, key: KEY, incidentId: id }))!;
const routesOf = (events: Array<[{ method: string; path: string }]>, id: string) =>
  events.map(([e]) => `${e.method} ${e.path.replaceAll(id, "{id}")}`);
/** The incident's deliveries to fire-rescue as the inspector lists them (oldest first): route, state, status in words. */
async function inspected(id: string) {
  const { items } = await inspectDeliveries({ db: s.runtime.db, input: { integration: KEY, incidentId: id } });
  const now = s.runtime.clock.nowMs();
  return items.reverse().map((d) => ({
    route: `${d.method} ${d.path.replaceAll(id, "{id}")}`,
    state: d.state,
    label: describeDeliveryStatus(d, now).label,
  }));
}
async function newIncident(label: string, phoneNumber: string) {
  const { incident } = await createIncident({
    db: s.runtime.db,
    clock: s.runtime.clock,
    portalUrl: s.url,
    purpose: "Demo",
    routingMode: "TokenAgency",
    createdByAgencyId: FIRE,
    agencyIds: [FIRE],
    phoneNumber,
    enteredLocation: { latitude: 60.2, longitude: 24.9 },
    label,
    actor: "cutover-test",
  });
  return incident.id;
}
/** The receiver's /about switches to `version` and the old contract's routes are removed; the integration is rediscovered. */
async function cutOver(from: number, version: string) {
  routes[from] = "removed";
  await setReceiverCapabilities({ db: s.runtime.db, clock: s.runtime.clock, key: KEY, version });
  return rediscoverIntegration({ runtime: s.runtime, key: KEY });
}
/** Every accepted receiver record of the incident: one per delivered row, in lane order, without anomalies. */
async function expectExactlyOnce(incidentId: string) {
  const rows = await s.runtime.db.webhookDelivery.findMany({
    where: { integrationKey: KEY, incidentId },
    orderBy: { id: "asc" },
  });
  expect(rows.filter((r) => r.state !== "delivered" && r.state !== "superseded")).toEqual([]);
  await whenReceiverProcessingIdle();
  const accepted = await s.runtime.db.receiverRecord.findMany({
    where: { integrationKey: KEY, incidentId, outcome: "accepted" },
    orderBy: { id: "asc" },
  });
  expect(accepted.map((r) => r.serviceRequestId)).toEqual(
    rows.filter((r) => r.state === "delivered").map((r) => r.requestId),
  );
  expect(accepted.map((r) => r.anomalies).flat()).toEqual([]);
  return rows;
}

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

  it("switching /about to 3.x with v2 events queued, v2 routes removed: they are superseded, the incident arrives as v3 create-and-track of its current snapshot, later changes as v3 events; no v2 request after the acceptance, no stall", async () => {
    // An outage of the v2 routes holds the summary change in the queue, and a position behind it.
    routes[2] = "down";
    const failed = waitForEvents("delivery:attempted", 1, (e) => e.integrationKey === KEY && e.status === 503);
    await setIncidentText({
      ...op({ runtime: s.runtime, incidentId }),
      field: "summary",
      value: "Two residents inside",
    });
    await failed;
    await addMeasuredLocation({
      ...op({ runtime: s.runtime, incidentId }),
      source: "MobileApp",
      fix: { latitude: 60.225, longitude: 24.925, accuracy: 6 },
    });
    expect((await inspected(incidentId)).slice(-2).map((d) => d.route)).toEqual([
      "POST /v2/incident",
      "POST /v2/incident/{id}/position",
    ]);

    // The receiver cuts over: /about 3.0, its v2 routes removed (404).
    const from = sent.length;
    const introduced = delivered(3);
    const next = await cutOver(2, "3.0");
    expect([next.status, next.majorVersion, next.credential]).toEqual(["active", 3, "Publisher"]);
    // The whole incident as it is now, under v3, at once: not behind an hour of 404s.
    expect(routesOf(await introduced, incidentId)).toEqual([
      "POST /v3/incidents",
      "PUT /v3/incidents/{id}/caller/track",
      "PUT /v3/incidents/{id}/caller/track",
    ]);
    await whenReceiverProcessingIdle();
    expect(diffReplica((await replica(incidentId)).snapshot, await platformSnapshot(incidentId))).toEqual([]);

    const later = delivered(3);
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
    expect(routesOf(await later, incidentId)).toEqual([
      "POST /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/closed",
    ]);

    // Not one v2 request after the acceptance: every event request since is v3, with a Publisher token.
    const since = sentAfterAcceptance("3.0", from);
    expect(since.map((r) => contractOf(r.path))).toEqual([3, 3, 3, 3, 3, 3]);
    for (const r of since) {
      const claims = decodeJwt(r.authorization!.replace(/^Bearer /, ""));
      expect([claims.aud, claims.sub, claims.client_id, claims.scope]).toEqual([
        publisherAudience(FIRE),
        PUBLISHER,
        PUBLISHER,
        "webhooks.receive",
      ]);
    }
    // The inspector says why the two v2 events were never delivered.
    const lane = await inspected(incidentId);
    expect(lane.filter((d) => d.state === "superseded").map((d) => d.route)).toEqual([
      "POST /v2/incident",
      "POST /v2/incident/{id}/position",
    ]);
    const [head, behind] = lane.filter((d) => d.state === "superseded");
    expect(head!.label).toMatch(/^superseded at cutover after \d+ attempts? \(last (503|404)\)$/);
    expect(behind!.label).toBe("superseded at cutover (unsent)");

    // Exactly once, in order: every delivered event accepted once, every v2 record before the first v3 one.
    await expectExactlyOnce(incidentId);
    const records = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: KEY, incidentId, outcome: "accepted" },
      orderBy: { id: "asc" },
    });
    const versions = records.map((r) => (matchLegacyRoute(r.method, r.path) ? 2 : 3));
    expect(versions).toEqual([...versions].sort());
    // The receiver's replica is now the v3 incident, equal to the platform's; the summary reached it.
    const stored = await replica(incidentId);
    const platform = await platformSnapshot(incidentId);
    expect(diffReplica(stored.snapshot, platform)).toEqual([]);
    expect(stored.closedAtUtc).not.toBeNull();
    expect(platform.summary).toBe("Two residents inside");
    // Every event's token was accepted. The only refusals are /about's: a 3.x receiver answers the
    // legacy credential 401, then discovery uses Publisher.
    const refused = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: KEY, outcome: "rejected-token" },
    });
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.path === "/about")).toBe(true);
  });

  it("back from 3.x to 2.x with v3 events queued, v3 routes removed: they are superseded, the incident arrives as the v2 incident and positions, later changes on v2 routes", async () => {
    routes[2] = "serve";
    const id = await newIncident("Chimney fire", "+358401112224");
    await delivered(2).then((events) =>
      expect(routesOf(events, id)).toEqual(["POST /v3/incidents", "PUT /v3/incidents/{id}/caller/track"]),
    );
    routes[3] = "down";
    const failed = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id && e.status === 503);
    await setIncidentText({
      ...op({ runtime: s.runtime, incidentId: id }),
      field: "label",
      value: "Chimney fire, spreading",
    });
    await failed;
    await addMeasuredLocation({
      ...op({ runtime: s.runtime, incidentId: id }),
      source: "MobileApp",
      fix: { latitude: 60.3, longitude: 25.0, accuracy: 8 },
    });

    const from = sent.length;
    const introduced = delivered(3);
    const next = await cutOver(3, "2.0");
    expect([next.status, next.majorVersion, next.credential]).toEqual(["active", 2, "PsapConnector"]);
    expect(routesOf(await introduced, id)).toEqual([
      "POST /v2/incident",
      "PUT /v2/incident/{id}/position",
      "PUT /v2/incident/{id}/position",
    ]);
    await whenReceiverProcessingIdle();
    expect((await replica(id)).snapshot).toEqual(renderIncidentV2(await platformSnapshot(id), s.runtime.clock.now()));

    const later = delivered(2);
    await addMeasuredLocation({
      ...op({ runtime: s.runtime, incidentId: id }),
      source: "MobileApp",
      fix: { latitude: 60.31, longitude: 25.01, accuracy: 7 },
    });
    await closeIncident({ ...op({ runtime: s.runtime, incidentId: id }) });
    expect(routesOf(await later, id)).toEqual(["POST /v2/incident/{id}/position", "POST /v2/incident/{id}"]);

    // No v3 request after the acceptance; each v2 one with the PsapConnector token of its route.
    const since = sentAfterAcceptance("2.0", from);
    expect(since.map((r) => contractOf(r.path))).toEqual([2, 2, 2, 2, 2]);
    for (const r of since) {
      const route = matchLegacyRoute(r.method, r.path.slice(RECEIVER_PATH.length))!;
      const claims = decodeJwt(r.authorization!.replace(/^Bearer /, ""));
      expect([claims.aud, claims.sub, claims.scope]).toEqual([
        psapConnectorAudience(FIRE),
        PSAP_CONNECTOR,
        LEGACY_ROUTES[route.key].scope,
      ]);
    }
    expect((await inspected(id)).filter((d) => d.state === "superseded").map((d) => d.route)).toEqual([
      expect.stringMatching(/^(PATCH \/v3\/incidents\/\{id\}\/label|POST \/v3\/incidents\/\{id\}\/changed)$/),
      "PUT /v3/incidents/{id}/caller/track",
    ]);
    await expectExactlyOnce(id);
    expect((await replica(id)).closedAtUtc).not.toBeNull();
  });

  it("from 2.x to 1.x with a v2 event in flight: it fails as it is and is superseded on its outcome, never retried; the queued one behind it superseded; v1 follows at once", async () => {
    routes[3] = "serve";
    const id = await newIncident("Car fire", "+358401112225");
    await delivered(2);
    // A v2 event in flight across the acceptance: the receiver holds its request.
    routes[2] = "hold";
    const held = new Promise<void>((resolve) => (onHeld = resolve));
    await setIncidentText({ ...op({ runtime: s.runtime, incidentId: id }), field: "label", value: "Car fire, tunnel" });
    await held;
    await setIncidentText({ ...op({ runtime: s.runtime, incidentId: id }), field: "summary", value: "Driver out" });

    const from = sent.length;
    const answered = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id && e.status === 404);
    const introduced = delivered(2);
    const next = await cutOver(2, "1.0");
    expect([next.status, next.majorVersion, next.credential]).toEqual(["active", 1, "PsapConnector"]);
    // The summary was superseded queued; the v1 create-and-track waits behind the event in flight.
    expect((await inspected(id)).map((d) => `${d.route} ${d.state}`)).toEqual([
      "POST /v2/incident delivered",
      "PUT /v2/incident/{id}/position delivered",
      "POST /v2/incident delivering",
      "POST /v2/incident superseded",
      "POST /v1/incident pending",
      "PUT /v1/incident/{id}/position pending",
    ]);
    release!(); // its answer: 404, the route is gone
    release = null;
    // Superseded by the record of that very attempt (written before the event): not put back for a retry.
    const [attempt] = (await answered)[0]!;
    const row = await s.runtime.db.webhookDelivery.findUniqueOrThrow({ where: { requestId: attempt.requestId } });
    expect([row.path, row.state, row.attemptCount]).toEqual(["/v2/incident", "superseded", 1]);
    expect(routesOf(await introduced, id)).toEqual(["POST /v1/incident", "PUT /v1/incident/{id}/position"]);
    const later = delivered(1);
    await setIncidentText({
      ...op({ runtime: s.runtime, incidentId: id }),
      field: "label",
      value: "Car fire, put out",
    });
    expect(routesOf(await later, id)).toEqual(["POST /v1/incident"]);

    expect((await inspected(id)).map((d) => `${d.route} ${d.label}`)).toEqual([
      "POST /v2/incident delivered",
      "PUT /v2/incident/{id}/position delivered",
      "POST /v2/incident superseded at cutover after 1 attempt (last 404)",
      "POST /v2/incident superseded at cutover (unsent)",
      "POST /v1/incident delivered",
      "PUT /v1/incident/{id}/position delivered",
      "POST /v1/incident delivered",
    ]);
    // Held before the acceptance, it is the one v2 request since; nothing after it but v1.
    expect(sentAfterAcceptance("1.0", from).map((r) => contractOf(r.path))).toEqual([1, 1, 1]);
    await expectExactlyOnce(id);
    await whenReceiverProcessingIdle();
    expect((await replica(id)).snapshot).toEqual(renderIncidentV2(await platformSnapshot(id), s.runtime.clock.now()));
  });
});
