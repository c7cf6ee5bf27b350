// The domain functions the simulator and dashboard reuse, on a real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchClock } from "../platform/clock/clock.ts";
import { createTestDatabase, type TestDatabase } from "../testing/test-database.ts";
import { createIncident } from "./create-incident.ts";
import { addMeasuredLocation, replaceTrack } from "./caller-track.ts";
import { linkDataSource, setCallerPhoneNumber, setDeviceInfo, setMedicData } from "./caller-data.ts";
import { listSms, openLocationSms, sendLocationSms } from "./location-sms.ts";
import { endLiveVideo, activateLiveVideo } from "./reach-caller.ts";
import { readIncident } from "./read-incident.ts";
import {
  emptyMedicData,
  expireDueTemporaryInformation,
  expireTemporaryInformation,
  setTemporaryInformation,
} from "./temporary-information.ts";
import { ZIncidentSnapshotV3 } from "./snapshot.schema.ts";
import { DEMO_INCIDENT } from "./seed-demo-incidents.ts";
import { AGENCY } from "../../prisma/seed.ts";

let database: TestDatabase;
const clock = new WorkbenchClock();
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const kindsOf = async (incidentId: string) =>
  (await database.db.incidentChange.findMany({ where: { incidentId }, orderBy: { seq: "asc" } })).map((c) => c.kind);

describe("a simulated caller's incident", () => {
  it("goes through every caller change with the right change kinds, the snapshot staying a valid v3 snapshot", async () => {
    const db = database.db;
    const { incident } = await createIncident({
      db,
      clock,
      portalUrl: "http://wb.test",
      purpose: "Test",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.centralEms],
      phoneNumber: null,
      actor: "simulator",
    });
    const base = { db, clock, incidentId: incident.id, actor: "simulator" };
    await addMeasuredLocation({
      ...base,
      source: "MobileApp",
      fix: { latitude: 59.96, longitude: 10.8, accuracy: 120 },
    });
    await replaceTrack({
      ...base,
      source: "MobileApp",
      track: [
        {
          type: "Measured",
          accuracy: 8,
          altitude: 40,
          altitudeAccuracy: 3,
          latitude: 59.961,
          longitude: 10.801,
          capturedAtUtc: clock.now().toISOString(),
          receivedAtUtc: clock.now().toISOString(),
          source: "MobileApp",
        },
      ],
    });
    await addMeasuredLocation({ ...base, source: "AppleEed", fix: { latitude: 59.9, longitude: 10.8, accuracy: 5 } });
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
    await setMedicData({ ...base, medicData: null });
    await linkDataSource({ ...base, source: { kind: "mobileApp", appInfo: { name: "Help", version: "3.1" } } });
    await activateLiveVideo({ ...base, portalUrl: "http://wb.test", durationS: 60 });
    await endLiveVideo(base);

    const state = (await readIncident({ db, incidentId: incident.id }))!;
    expect(ZIncidentSnapshotV3.safeParse(state.snapshot).success).toBe(true);
    expect(state.snapshot.purpose).toBe("Test");
    expect(state.snapshot.caller.tracks).toEqual([
      { source: "MobileApp", track: [expect.objectContaining({ accuracy: 8 })] },
    ]);
    expect(state.internal.appleEedTrack).toHaveLength(1);
    expect(state.snapshot.caller.dataSources.mobileApp).toEqual({ appInfo: { name: "Help", version: "3.1" } });
    // medicData null → null is no change; the Apple EED fix records nothing.
    expect(await kindsOf(incident.id)).toEqual([
      "incident.created",
      "caller.newLocation",
      "caller.trackReplaced",
      "caller.phoneNumberChanged",
      "caller.deviceInfoChanged",
      "caller.changed",
      "caller.liveVideo.activated",
      "caller.liveVideo.ended",
    ]);
  });

  it("a second data source of one kind replaces the first: the most recent is reflected (spec, dataSources)", async () => {
    const db = database.db;
    const { incident } = await createIncident({
      db,
      clock,
      portalUrl: "http://wb.test",
      purpose: "Real",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.northPsap],
      phoneNumber: null,
      actor: "simulator",
    });
    const base = { db, clock, incidentId: incident.id, actor: "simulator" };
    await linkDataSource({ ...base, source: { kind: "mobileApp", appInfo: { name: "Help", version: "3.1" } } });
    await linkDataSource({
      ...base,
      source: {
        kind: "appleEed",
        hasLocation: true,
        hasLiveVideo: false,
        hasMediaUpload: false,
        hasAdditionalData: false,
      },
    });
    await linkDataSource({ ...base, source: { kind: "mobileApp", appInfo: { name: "SafetyApp", version: "5.0" } } });
    await linkDataSource({
      ...base,
      source: {
        kind: "appleEed",
        hasLocation: false,
        hasLiveVideo: true,
        hasMediaUpload: true,
        hasAdditionalData: true,
      },
    });
    const { dataSources } = (await readIncident({ db, incidentId: incident.id }))!.snapshot.caller;
    expect(dataSources).toEqual({
      mobileApp: { appInfo: { name: "SafetyApp", version: "5.0" } },
      webApp: null,
      appleEed: { hasLocation: false, hasLiveVideo: true, hasMediaUpload: true, hasAdditionalData: true },
      googleEls: null,
    });
    expect(await kindsOf(incident.id)).toEqual(["incident.created", ...Array(4).fill("caller.changed")]);
  });

  it("live video activates on a device without video: activation never fails because a device cannot do video", async () => {
    const db = database.db;
    const { incident } = await createIncident({
      db,
      clock,
      portalUrl: "http://wb.test",
      purpose: "Real",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.northPsap],
      phoneNumber: null,
      actor: "simulator",
    });
    const base = { db, clock, incidentId: incident.id, actor: "simulator" };
    await setDeviceInfo({
      ...base,
      deviceInfo: {
        batteryLevel: 80,
        operatingSystem: "KaiOS",
        operatingSystemVersion: "3",
        internetConnectionType: "Cellular3G",
        liveVideoSupport: false,
        automaticDetections: { crashDetected: false, fallDetected: false },
      },
    });
    await activateLiveVideo({ ...base, portalUrl: "http://wb.test", durationS: 60 });
    const { caller } = (await readIncident({ db, incidentId: incident.id }))!.snapshot;
    expect(caller.deviceInfo?.liveVideoSupport).toBe(false);
    expect(caller.liveVideo).toMatchObject({ state: "Active", endedAtUtc: null });
    expect((await kindsOf(incident.id)).at(-1)).toBe("caller.liveVideo.activated");
  });

  it("a temporary-information warning is merged into medicData.notes.caller while unexpired, then the caller's own notes return", async () => {
    const db = database.db;
    const { incident } = await createIncident({
      db,
      clock,
      portalUrl: "http://wb.test",
      purpose: "Real",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.northPsap],
      phoneNumber: null,
      actor: "simulator",
    });
    const base = { db, clock, incidentId: incident.id, actor: "simulator" };
    const notes = async () =>
      (await readIncident({ db, incidentId: incident.id }))!.snapshot.caller.medicData?.notes.caller;
    const medic = { ...emptyMedicData(), allergies: "penicillin", notes: { caller: "asthma" } };
    await setMedicData({ ...base, medicData: medic });
    await setTemporaryInformation({ ...base, warning: "Gas leak in the stairwell", validForS: 600 });
    expect(await notes()).toBe("asthma\nTemporary information: Gas leak in the stairwell");
    // The caller updates their medical data meanwhile: the warning stays merged into the new notes.
    await setMedicData({ ...base, medicData: { ...medic, notes: { caller: "asthma, inhaler in the car" } } });
    expect(await notes()).toBe("asthma, inhaler in the car\nTemporary information: Gas leak in the stairwell");
    const state = (await readIncident({ db, incidentId: incident.id }))!;
    expect(ZIncidentSnapshotV3.safeParse(state.snapshot).success).toBe(true);
    expect(state.snapshot.caller.medicData?.allergies).toBe("penicillin");

    expect(await expireDueTemporaryInformation({ db, clock })).toBe(0); // unexpired
    clock.setOffset(clock.offsetMs + 601_000);
    try {
      expect(await expireDueTemporaryInformation({ db, clock })).toBe(1);
    } finally {
      clock.setOffset(clock.offsetMs - 601_000);
    }
    expect(await notes()).toBe("asthma, inhaler in the car");
    const changes = await database.db.incidentChange.findMany({
      where: { incidentId: incident.id },
      orderBy: { seq: "asc" },
    });
    expect(changes.map((c) => [c.kind, (c.payload as { what?: string }).what ?? null])).toEqual([
      ["incident.created", null],
      ["caller.changed", "medicData"],
      ["caller.changed", "medicData.notes.caller (temporary information)"],
      ["caller.changed", "medicData"],
      ["caller.changed", "medicData.notes.caller (temporary information expired)"],
    ]);
  });

  it("a warning for a caller without medical data adds medicData for it, and removes it again on expiry", async () => {
    const db = database.db;
    const { incident } = await createIncident({
      db,
      clock,
      portalUrl: "http://wb.test",
      purpose: "Real",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.northPsap],
      phoneNumber: null,
      actor: "simulator",
    });
    const base = { db, clock, incidentId: incident.id, actor: "simulator" };
    await setTemporaryInformation({ ...base, warning: "Aggressive dog at the door", validForS: 60 });
    const during = (await readIncident({ db, incidentId: incident.id }))!.snapshot;
    expect(during.caller.medicData).toEqual({
      ...emptyMedicData(),
      notes: { caller: "Temporary information: Aggressive dog at the door" },
    });
    expect(ZIncidentSnapshotV3.safeParse(during).success).toBe(true);
    clock.setOffset(clock.offsetMs + 61_000);
    try {
      await expireTemporaryInformation(base);
    } finally {
      clock.setOffset(clock.offsetMs - 61_000);
    }
    expect((await readIncident({ db, incidentId: incident.id }))!.snapshot.caller.medicData).toBeNull();
  });

  it("a location SMS opened in the simulator yields a MobileAppSms Measured location", async () => {
    const db = database.db;
    const { incident } = await createIncident({
      db,
      clock,
      portalUrl: "http://wb.test",
      purpose: "Real",
      routingMode: null,
      createdByAgencyId: null,
      agencyIds: [AGENCY.northPsap],
      phoneNumber: "+4795000002",
      actor: "simulator",
    });
    const sent = await sendLocationSms({
      db,
      clock,
      incidentId: incident.id,
      actor: "test",
      portalUrl: "http://wb.test",
      agencyId: AGENCY.northPsap,
    });
    await openLocationSms({
      db,
      clock,
      smsId: sent.result.smsId,
      fix: { latitude: 59.97, longitude: 10.77, accuracy: 15 },
    });
    const [sms] = await listSms({ db, incidentId: incident.id });
    expect(sms).toMatchObject({
      smsId: sent.result.smsId,
      sentTo: "+4795000002",
      openedAtUtc: expect.any(String),
      link: `http://wb.test/locate/${sent.result.smsId}`,
    });
    const state = (await readIncident({ db, incidentId: incident.id }))!;
    expect(state.snapshot.caller.tracks).toEqual([
      {
        source: "MobileAppSms",
        track: [expect.objectContaining({ type: "Measured", source: "MobileAppSms", accuracy: 15 })],
      },
    ]);
  });

  it("the seed holds the two Demo incidents as valid v3 snapshots", async () => {
    for (const id of Object.values(DEMO_INCIDENT)) {
      const state = (await readIncident({ db: database.db, incidentId: id }))!;
      expect(state.purpose).toBe("Demo");
      expect(ZIncidentSnapshotV3.safeParse(state.snapshot).success).toBe(true);
    }
  });
});
