// The receivers router (dashboard + CLI) against a live receiver over HTTP.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createCaller } from "../root.ts";
import { createTRPCContext } from "../trpc.ts";
import { setRuntime } from "../../runtime.ts";
import { webhookEvents, type WebhookEvents } from "../../webhooks/webhook-events.ts";
import { makeSnapshot, NORTH_PSAP } from "../../reference-receiver/testing/snapshot-fixture.ts";
import { nextProcessed, receiverClient } from "../../reference-receiver/testing/deliver.ts";
import { whenReceiverProcessingIdle } from "../../reference-receiver/process-deliveries.ts";
import { processRecords } from "../../reference-receiver/process-records.ts";
import { recordDelivery } from "../../reference-receiver/record-delivery.ts";
import { EventLoopSlices } from "../../platform/event-loop-slices.ts";
import { unprocessedRecordCount } from "../../reference-receiver/receiver-progress.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { isLegacyCredentialProbe, LEGACY_PROBE_DETAIL } from "../../reference-receiver/legacy-credential-probe.ts";
import { discoverIntegration } from "../../webhooks/discovery/discover-integration.ts";

let s: TestServer;
let caller: ReturnType<typeof createCaller>;
beforeAll(async () => {
  s = await startTestServer();
  setRuntime(s.runtime);
  caller = createCaller(await createTRPCContext({ headers: new Headers() }));
});
afterAll(async () => {
  setRuntime(undefined);
  await whenReceiverProcessingIdle();
  await s.close();
});

describe("receivers router", () => {
  it("lists the three seeded embedded receivers with the default declaration and no fault", async () => {
    const list = await caller.receivers.list();
    expect(list.map((r) => r.key)).toEqual(["central-ems", "fire-rescue", "north-psap"]);
    for (const r of list) {
      expect(r.flags.every((f) => f.enabled)).toBe(true);
      expect(r.fault.state).toBe("none");
      expect(r.declarationProblem).toBeNull();
    }
  });

  it("records discovery's legacy-credential probe of a 3.x receiver as expected, apart from refused tokens", async () => {
    // Discovery tries /about with PsapConnector first (spec, "Webhook receiver token validation").
    expect(await discoverIntegration(s.runtime, "north-psap")).toMatchObject({
      status: "active",
      credential: "Publisher",
    });
    const north = (await caller.receivers.list()).find((r) => r.key === "north-psap")!;
    expect(north.legacyProbes).toBe(1);
    expect(north.recorded["rejected-token"]).toBe(1);
    const events = await caller.receivers.events({ key: "north-psap", limit: 50 });
    const probe = events.find((e) => e.path === "/about" && e.outcome === "rejected-token")!;
    expect(probe.detail).toBe(LEGACY_PROBE_DETAIL);
    expect(isLegacyCredentialProbe(probe)).toBe(true);
    // A token that is neither credential is still a plain refusal.
    const client = receiverClient(s, "north-psap", NORTH_PSAP);
    expect((await fetch(`${client.url}/about`, { headers: { authorization: "Bearer not.a.token" } })).status).toBe(401);
    const refused = (await caller.receivers.events({ key: "north-psap", limit: 50 })).find(
      (e) => e.path === "/about" && e.outcome === "rejected-token" && e.detail !== LEGACY_PROBE_DETAIL,
    )!;
    expect(isLegacyCredentialProbe(refused)).toBe(false);
  });

  it("a capability change is served on /about and announced to the engine as integration:about-changed", async () => {
    const emitted = new Promise<WebhookEvents["integration:about-changed"][0]>((resolve) =>
      webhookEvents().once("integration:about-changed", resolve),
    );
    await caller.receivers.setCapabilities({
      key: "north-psap",
      set: { "incident.labelChanged": false, "incident.changed": true },
      version: "3.1",
      allowsMonitoring: true,
    });
    expect(await emitted).toMatchObject({ integrationKey: "north-psap" });
    const north = receiverClient(s, "north-psap", NORTH_PSAP);
    const about = (await (
      await fetch(`${north.url}/about`, { headers: { authorization: `Bearer ${await north.token()}` } })
    ).json()) as { version: string; supports: { incident: Record<string, unknown> }; allowsMonitoring: boolean };
    expect(about).toMatchObject({
      version: "3.1",
      allowsMonitoring: true,
      supports: { incident: { labelChanged: false, changed: true, created: true } },
    });
    await expect(
      caller.receivers.setCapabilities({ key: "north-psap", set: { "incident.teleport": true } }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.receivers.setCapabilities({ key: "north-psap", version: "4.0" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    }); // 1.x/2.x are accepted (the legacy contracts); an unknown major is not
    await expect(caller.receivers.setCapabilities({ key: "nobody", set: {} })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("events lists what was recorded, newest first, with duplicates and anomalies marked; filtered by incident", async () => {
    const north = receiverClient(s, "north-psap", NORTH_PSAP);
    const snapshot = makeSnapshot({ purpose: "Test" });
    const requestId = randomUUID();
    const p = nextProcessed((e) => e.incidentId === snapshot.id);
    await north.send("POST", "/v3/incidents", { incident: snapshot }, { requestId });
    await p;
    await north.send("POST", "/v3/incidents", { incident: snapshot }, { requestId });
    const p2 = nextProcessed((e) => e.incidentId === snapshot.id);
    await north.send("PATCH", `/v3/incidents/${snapshot.id}/label`, {});
    await p2;
    const events = await caller.receivers.events({ key: "north-psap", incidentId: snapshot.id });
    expect(events.map((e) => [e.route, e.duplicates, e.anomalies, e.isTest, e.processed])).toEqual([
      ["labelChanged", 0, ["missing-key:label", "undeclared-route:incident.labelChanged"], true, true],
      ["created", 1, [], true, true],
    ]);
    const [replica] = await caller.receivers.replicas({ key: "north-psap", incidentId: snapshot.id });
    expect(replica).toMatchObject({ isTest: true, snapshot: { id: snapshot.id } });
  });

  it("events mark a record processed once it is applied to the replica; a refused one never is", async () => {
    const north = receiverClient(s, "north-psap", NORTH_PSAP);
    const snapshot = makeSnapshot();
    const created = nextProcessed((e) => e.incidentId === snapshot.id);
    await north.send("POST", "/v3/incidents", { incident: snapshot });
    await created;
    expect(
      (await north.send("PATCH", `/v3/incidents/${snapshot.id}/label`, { label: "x" }, { token: null })).status,
    ).toBe(401);
    await north.send("PATCH", `/v3/incidents/${snapshot.id}/summary`, { summary: "s" });
    await whenReceiverProcessingIdle();
    const events = await caller.receivers.events({ key: "north-psap", incidentId: snapshot.id });
    expect(events.map((e) => [e.route, e.outcome, e.processed])).toEqual([
      ["summaryChanged", "accepted", true],
      ["labelChanged", "rejected-token", false],
      ["created", "accepted", true],
    ]);
    expect(
      await unprocessedRecordCount(s.runtime.db, { integrationKey: "north-psap", incidentIds: [snapshot.id] }),
    ).toBe(0);
    // Nothing at or below the incident's mark is pending again.
    const pair = { integrationKey: "north-psap", incidentId: snapshot.id };
    expect(await processRecords(s.runtime.db, s.runtime.clock.now(), [pair])).toEqual([{ state: "idle" }]);
  });

  it("processing applies a long batch in slices, letting the event loop run between them", async () => {
    const snapshot = makeSnapshot();
    const record = (method: string, path: string, body: unknown) =>
      recordDelivery({
        db: s.runtime.db,
        clock: s.runtime.clock,
        input: {
          integrationKey: "north-psap",
          method,
          path,
          route: null,
          incidentId: snapshot.id,
          serviceRequestId: randomUUID(),
          requestTimestamp: null,
          body,
          status: 200,
          outcome: "accepted",
        },
      });
    // Recorded without the HTTP route, so nothing starts processing them but the call below.
    await record("POST", "/v3/incidents", { incident: snapshot });
    for (let i = 0; i < 40; i++) await record("PATCH", `/v3/incidents/${snapshot.id}/summary`, { summary: `s${i}` });
    const slices = new EventLoopSlices(0); // spent at once: a new slice before every record
    const next = vi.spyOn(slices, "next");
    const pair = { integrationKey: "north-psap", incidentId: snapshot.id };
    const [outcome] = await processRecords(s.runtime.db, s.runtime.clock.now(), [pair], { slices });
    expect(outcome).toMatchObject({ state: "processed", anomalies: [] });
    expect(outcome?.state === "processed" && outcome.recordIds).toHaveLength(41);
    expect(next).toHaveBeenCalledTimes(41);
    const replica = await s.runtime.db.receiverIncident.findUnique({
      where: { integrationKey_incidentId: pair },
    });
    expect((replica?.snapshot as { summary: string }).summary).toBe("s39");
  });

  it("faults show their remaining time; network faults are per integration", async () => {
    expect(await caller.receivers.setFault({ key: "central-ems", mode: "http-503", for: "2m" })).toMatchObject({
      state: "active",
      mode: "http-503",
      remainingMs: 120_000,
    });
    expect((await caller.receivers.get({ key: "central-ems" })).fault.remainingMs).toBeLessThanOrEqual(120_000);
    expect(await caller.receivers.setNetworkFault({ key: "fire-rescue", mode: "timeout", at: "+1m" })).toMatchObject({
      state: "scheduled",
      remainingMs: 60_000,
    });
    await expect(caller.receivers.setFault({ key: "central-ems", mode: "explode" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
