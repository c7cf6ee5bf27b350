// Caller-side changes (the platform's own sources, the simulator) through the whole
// chain: an incident raised by a simulated caller with existing tracks (rule 6:
// create, then one whole-track PUT per non-empty non-Apple source), then the
// changes a real platform receives from callers, under the composed shape
// (caller.changed → PUT caller, rule 3) and the specific shape (PATCH routes;
// what no route expresses arrives as generic changed). The simulator has no
// HTTP surface of its own, so these steps call its domain functions.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createIncident } from "../incidents/create-incident.ts";
import { addMeasuredLocation, replaceTrack } from "../incidents/caller-track.ts";
import { linkDataSource, setCallerPhoneNumber, setDeviceInfo } from "../incidents/caller-data.ts";
import { activateLiveVideo, endLiveVideo } from "../incidents/reach-caller.ts";
import type { TLocation } from "../incidents/snapshot.schema.ts";
import { V3_FLAG_PATHS } from "../webhook-contracts/v3/capability-flags.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { setReceiverCapabilities } from "../reference-receiver/receiver-capabilities.ts";
import { AGENCY, startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
beforeAll(async () => {
  s = await startScenario();
});
afterAll(async () => {
  await s?.close();
});
afterEach(async () => {
  await setReceiverCapabilities({
    db: s.runtime.db,
    clock: s.runtime.clock,
    key: "north-psap",
    set: Object.fromEntries(V3_FLAG_PATHS.map((f) => [f, true])),
  });
});

function fix(source: TLocation["source"], latitude: number, accuracy: number): TLocation {
  const at = s.runtime.clock.now().toISOString();
  return {
    type: "Measured",
    accuracy,
    altitude: null,
    altitudeAccuracy: null,
    latitude,
    longitude: 10.8,
    capturedAtUtc: at,
    receivedAtUtc: at,
    source,
  };
}

async function raiseCallerIncident() {
  const { db, clock } = s.runtime;
  const { incident } = await createIncident({
    db,
    clock,
    portalUrl: s.server.url,
    purpose: "Real",
    routingMode: null,
    createdByAgencyId: null,
    agencyIds: [AGENCY.northPsap],
    phoneNumber: null,
    actor: "simulator",
    tracks: [
      { source: "MobileApp", track: [fix("MobileApp", 59.96, 120)] },
      { source: "Aml", track: [fix("Aml", 59.961, 35)] },
    ],
  });
  return { db, clock, incidentId: incident.id, actor: "simulator" };
}

async function callerChanges(base: Awaited<ReturnType<typeof raiseCallerIncident>>) {
  await addMeasuredLocation({ ...base, source: "MobileApp", fix: { latitude: 59.962, longitude: 10.8, accuracy: 20 } });
  await replaceTrack({ ...base, source: "Aml", track: [fix("Aml", 59.963, 8)] }); // coarse fix discarded for a precise one
  await addMeasuredLocation({ ...base, source: "AppleEed", fix: { latitude: 59.9, longitude: 10.8, accuracy: 5 } }); // never in tracks
  await setCallerPhoneNumber({ ...base, phoneNumber: "+4795000001" });
  await setDeviceInfo({
    ...base,
    deviceInfo: {
      batteryLevel: 40,
      operatingSystem: "Android",
      operatingSystemVersion: "15",
      internetConnectionType: "Cellular5G",
      liveVideoSupport: true,
      automaticDetections: { crashDetected: false, fallDetected: true },
    },
  });
  await linkDataSource({ ...base, source: { kind: "mobileApp", appInfo: { name: "Help", version: "3.1" } } });
  await activateLiveVideo({ ...base, portalUrl: s.server.url, durationS: 60 });
  await endLiveVideo(base);
}

const routes = async (id: string) =>
  (await s.deliveries("north-psap", id)).map((d) => `${d.method} ${d.path.replace(id, "{id}")}`);

describe("a simulated caller's incident", () => {
  it("composed shape (every flag): create + one whole track per source, then appends, PUT caller for caller data; replica = platform", async () => {
    const base = await raiseCallerIncident();
    await callerChanges(base);
    await s.settled(base.incidentId);
    expect(await routes(base.incidentId)).toEqual([
      "POST /v3/incidents",
      "PUT /v3/incidents/{id}/caller/track",
      "PUT /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/track",
      "PUT /v3/incidents/{id}/caller/track",
      "PUT /v3/incidents/{id}/caller",
      "PUT /v3/incidents/{id}/caller",
      "PUT /v3/incidents/{id}/caller",
      "POST /v3/incidents/{id}/caller/live-video/activated",
      "POST /v3/incidents/{id}/caller/live-video/ended",
    ]);
    const bodies = (await s.deliveries("north-psap", base.incidentId)).map((d) => d.body as { source?: string });
    expect([bodies[1]!.source, bodies[2]!.source]).toEqual(["MobileApp", "Aml"]);
    expect(JSON.stringify(bodies)).not.toContain("AppleEed");
    const { replica, platform } = await s.replicaAndPlatform("north-psap", base.incidentId);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    expect((await s.records("north-psap", base.incidentId)).flatMap((r) => r.anomalies)).toEqual([]);
  });

  it("specific shape (caller.changed=false): PATCH phone-number and device-info; a linked data source arrives as generic changed", async () => {
    await setReceiverCapabilities({
      db: s.runtime.db,
      clock: s.runtime.clock,
      key: "north-psap",
      set: { "incident.caller.changed": false },
    });
    const base = await raiseCallerIncident();
    await callerChanges(base);
    await s.settled(base.incidentId);
    expect((await routes(base.incidentId)).slice(5, 8)).toEqual([
      "PATCH /v3/incidents/{id}/caller/phone-number",
      "PATCH /v3/incidents/{id}/caller/device-info",
      "POST /v3/incidents/{id}/changed",
    ]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", base.incidentId);
    // Only what `changed` could not carry differs: the linked app.
    expect(diffReplica(replica!.snapshot, platform).map((d) => d.path)).toEqual(["caller.dataSources.mobileApp"]);
    expect((await s.records("north-psap", base.incidentId)).flatMap((r) => r.anomalies)).toEqual([]);
  });
});
