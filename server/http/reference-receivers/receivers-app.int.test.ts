// Black-box: the embedded reference receiver over HTTP, driven with Publisher
// tokens minted exactly as the webhook engine mints them.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintPsapConnectorToken } from "../../identity/service-tokens.ts";
import { defaultDeclaration } from "../../reference-receiver/capabilities.ts";
import {
  knownLocation,
  makeSnapshot,
  measuredLocation,
  NORTH_PSAP,
} from "../../reference-receiver/testing/snapshot-fixture.ts";
import { receiverEvents } from "../../reference-receiver/receiver-events.ts";
import { nextProcessed, receiverClient } from "../../reference-receiver/testing/deliver.ts";
import { whenReceiverProcessingIdle } from "../../reference-receiver/process-deliveries.ts";
import { startTestServer, type TestServer } from "../../testing/test-server.ts";
import { readReplica } from "../../reference-receiver/list-receivers.ts";
import { unprocessedRecordCount } from "../../reference-receiver/receiver-progress.ts";

let s: TestServer;
let north: ReturnType<typeof receiverClient>;
beforeAll(async () => {
  s = await startTestServer();
  north = receiverClient(s, "north-psap", NORTH_PSAP);
});
afterAll(async () => {
  await whenReceiverProcessingIdle();
  await s.close();
});

const records = (where: Record<string, unknown> = {}) =>
  s.runtime.db.receiverRecord.findMany({ where: { integrationKey: "north-psap", ...where }, orderBy: { id: "asc" } });

describe("discovery routes", () => {
  it("is mounted at /receivers/{key}: /health answers 200, an unknown key 404", async () => {
    expect((await fetch(`${north.url}/health`)).status).toBe(200);
    expect((await fetch(`${s.url}/receivers/nobody/health`)).status).toBe(404);
  });

  it("GET /about returns the default declaration to the Publisher credential", async () => {
    const res = await fetch(`${north.url}/about`, { headers: { authorization: `Bearer ${await north.token()}` } });
    expect(res.status).toBe(200);
    const about = (await res.json()) as ReturnType<typeof defaultDeclaration>;
    expect(about).toEqual(defaultDeclaration());
    expect(about.version).toBe("3.0");
    expect(about.allowsMonitoring).toBe(false);
    expect(about.supports.incident).toMatchObject({
      created: true,
      caller: { liveVideo: { ended: true }, chat: { activated: true } },
      patient: { descriptionChanged: true },
    });
  });

  it("answers the legacy PsapConnector credential on /about with 401 (v3-only receiver)", async () => {
    const legacy = await mintPsapConnectorToken(s.runtime, NORTH_PSAP, ["psap.incident"]);
    const res = await fetch(`${north.url}/about`, { headers: { authorization: `Bearer ${legacy.accessToken}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("invalid_token");
  });

  it("answers an unknown v3 route with 404", async () => {
    expect((await north.send("POST", "/v3/nothing", {})).status).toBe(404);
  });
});

describe("delivery handling", () => {
  it("records durably before answering 200, and applies to the replica afterwards", async () => {
    const snapshot = makeSnapshot();
    const processed = nextProcessed((e) => e.incidentId === snapshot.id);
    const res = await north.send("POST", "/v3/incidents", { incident: snapshot });
    expect(res.status).toBe(200);
    // The record exists as soon as the answer arrived.
    const [record] = await records({ incidentId: snapshot.id });
    expect(record).toMatchObject({ outcome: "accepted", status: 200, route: "created" });
    expect((await processed).anomalies).toEqual([]);
    const replica = await readReplica({ db: s.runtime.db, key: "north-psap", incidentId: snapshot.id });
    expect(replica?.snapshot).toEqual(snapshot);
  });

  it("deduplicates on Service-Request-Id: two deliveries, both 200, recorded once with the duplicate counted", async () => {
    const snapshot = makeSnapshot();
    const requestId = randomUUID();
    const processed = nextProcessed((e) => e.incidentId === snapshot.id);
    expect((await north.send("POST", "/v3/incidents", { incident: snapshot }, { requestId })).status).toBe(200);
    await processed;
    const second = await north.send(
      "PATCH",
      `/v3/incidents/${snapshot.id}/label`,
      { label: "ignored: same id" },
      { requestId },
    );
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    const rows = await records({ serviceRequestId: requestId });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ duplicates: 1, route: "created" });
    expect(rows[0]!.lastDuplicateAt).not.toBeNull();
  });

  it("deduplicates a retry that arrives beside its original (recorded together): one record, one duplicate", async () => {
    const snapshot = makeSnapshot();
    const requestId = randomUUID();
    const sent = await Promise.all(
      [0, 1, 2].map(() => north.send("POST", "/v3/incidents", { incident: snapshot }, { requestId })),
    );
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    const answers = (await Promise.all(sent.map((r) => r.json()))) as Array<{ duplicate: boolean }>;
    expect(answers.filter((a) => !a.duplicate)).toHaveLength(1);
    const rows = await records({ serviceRequestId: requestId });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ duplicates: 2, route: "created" });
  });

  it("records, answers 200 and flags an unprocessable delivery (schema-invalid, unknown incident, bad JSON)", async () => {
    const unknownId = randomUUID();
    const p1 = nextProcessed((e) => e.incidentId === unknownId);
    expect((await north.send("PATCH", `/v3/incidents/${unknownId}/label`, { label: "x" })).status).toBe(200);
    expect((await p1).anomalies).toEqual(["unknown-incident"]);

    const invalid = makeSnapshot();
    const p2 = nextProcessed((e) => e.incidentId === invalid.id);
    expect((await north.send("POST", "/v3/incidents", { incident: { ...invalid, purpose: "Drill" } })).status).toBe(
      200,
    );
    expect((await p2).anomalies).toEqual([expect.stringMatching(/^invalid-body:incident\.purpose/)]);

    const p3 = nextProcessed((e) => e.incidentId === unknownId);
    expect(
      (await north.send("POST", `/v3/incidents/${unknownId}/closed`, undefined, { rawBody: "{not json" })).status,
    ).toBe(200);
    expect((await p3).anomalies).toEqual(expect.arrayContaining(["invalid-json"]));
    const rows = await records({ incidentId: unknownId });
    expect(rows.map((r) => r.status)).toEqual([200, 200]);
    expect(rows.every((r) => r.anomalies.length > 0)).toBe(true);
  });

  it("accepts a Test-purpose incident and marks its records as tests", async () => {
    const snapshot = makeSnapshot({ purpose: "Test" });
    const processed = nextProcessed((e) => e.incidentId === snapshot.id);
    expect((await north.send("POST", "/v3/incidents", { incident: snapshot })).status).toBe(200);
    await processed;
    const p2 = nextProcessed((e) => e.incidentId === snapshot.id);
    expect((await north.send("PATCH", `/v3/incidents/${snapshot.id}/summary`, { summary: "drill" })).status).toBe(200);
    await p2;
    expect((await records({ incidentId: snapshot.id })).map((r) => r.isTest)).toEqual([true, true]);
  });

  it("applies deliveries answered before the previous one was processed in their recorded order, and shows a hole", async () => {
    const snapshot = makeSnapshot();
    const id = snapshot.id;
    const allDone = new Promise<void>((resolve) => {
      let applied = 0;
      const onProcessed = (e: { incidentId: string | null; recordIds: bigint[] }) => {
        if (e.incidentId !== id) return;
        applied += e.recordIds.length;
        if (applied === 7) {
          receiverEvents.off("receiver:processed", onProcessed);
          resolve();
        }
      };
      receiverEvents.on("receiver:processed", onProcessed);
    });
    await north.send("POST", "/v3/incidents", { incident: snapshot });
    await north.send("PUT", `/v3/incidents/${id}/caller/track`, {
      source: "Entered",
      track: [knownLocation(59.95, 10.75)],
    });
    for (let i = 1; i <= 4; i++)
      await north.send("POST", `/v3/incidents/${id}/caller/track`, { location: knownLocation(59.95, 10.75 + i) });
    // An append for a source whose whole track never arrived: a hole.
    await north.send("POST", `/v3/incidents/${id}/caller/track`, {
      location: measuredLocation(59.96, 10.76, "MobileAppSms"),
    });
    await allDone;
    const replica = (await readReplica({ db: s.runtime.db, key: "north-psap", incidentId: id }))!;
    const tracks = replica.snapshot.caller.tracks;
    expect(tracks.find((t) => t.source === "Entered")!.track.map((l) => l.longitude)).toEqual([
      10.75, 11.75, 12.75, 13.75, 14.75,
    ]);
    const rows = await records({ incidentId: id });
    expect(rows.map((r) => r.anomalies)).toEqual([[], [], [], [], [], [], ["hole:MobileAppSms"]]);
  });

  it("under concurrent deliveries for one incident, every record is processed once, in recorded order", async () => {
    const snapshot = makeSnapshot();
    const id = snapshot.id;
    const p = nextProcessed((e) => e.incidentId === id);
    await north.send("POST", "/v3/incidents", { incident: snapshot });
    await p;
    await north.send("PUT", `/v3/incidents/${id}/caller/track`, {
      source: "Entered",
      track: [knownLocation(59.95, 0)],
    });
    const statuses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        north
          .send("POST", `/v3/incidents/${id}/caller/track`, { location: knownLocation(59.95, i + 1) })
          .then((r) => r.status),
      ),
    );
    expect(statuses.every((x) => x === 200)).toBe(true);
    // Every delivery was recorded before its 200: now wait until none is left unprocessed.
    await new Promise<void>((resolve) => {
      const check = async () => {
        if ((await unprocessedRecordCount(s.runtime.db, { integrationKey: "north-psap", incidentIds: [id] })) === 0) {
          receiverEvents.off("receiver:processed", onProcessed);
          resolve();
        }
      };
      const onProcessed = () => void check();
      receiverEvents.on("receiver:processed", onProcessed);
      void check();
    });
    const rows = await records({ incidentId: id, route: "caller.newLocation" });
    const recordedOrder = rows.map((r) => (r.body as { location: { longitude: number } }).location.longitude);
    const replica = (await readReplica({ db: s.runtime.db, key: "north-psap", incidentId: id }))!;
    const track = replica.snapshot.caller.tracks[0]!.track.map((l) => l.longitude);
    expect(track).toEqual([0, ...recordedOrder]);
    expect(new Set(track).size).toBe(25);
  });

  it("flags a delivery to a route whose capability is not declared", async () => {
    await s.runtime.db.receiverCapabilities.create({
      data: {
        integrationKey: "central-ems",
        declaration: { version: "3.0", supports: { incident: { created: true } }, allowsMonitoring: false },
        updatedAt: s.runtime.clock.now(),
      },
    });
    const ems = receiverClient(s, "central-ems", "0b0c5b52-1c0e-4a57-9a57-000000000002");
    const snapshot = makeSnapshot();
    const p1 = nextProcessed((e) => e.incidentId === snapshot.id);
    await ems.send("POST", "/v3/incidents", { incident: snapshot });
    await p1;
    const p2 = nextProcessed((e) => e.incidentId === snapshot.id);
    expect((await ems.send("PATCH", `/v3/incidents/${snapshot.id}/label`, { label: "L" })).status).toBe(200);
    expect((await p2).anomalies).toEqual(["undeclared-route:incident.labelChanged"]);
  });
});
