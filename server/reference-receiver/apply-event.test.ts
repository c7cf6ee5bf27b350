import { describe, expect, it } from "vitest";
import { applyEvent, applyEventInPlace, type Delivery, type Replica } from "./apply-event.ts";
import { diffReplica } from "./diff-replica.ts";
import { knownLocation, makeSnapshot, measuredLocation } from "./testing/snapshot-fixture.ts";

const EMS = "0b0c5b52-1c0e-4a57-9a57-000000000002";
const at = "2026-11-22T06:30:00.000Z";

function run(
  replica: Replica | null,
  ...events: Array<Omit<Delivery, "requestTimestamp"> & { requestTimestamp?: string }>
) {
  const anomalies: string[][] = [];
  for (const e of events) {
    const applied = applyEvent(replica, { requestTimestamp: at, ...e });
    replica = applied.replica;
    anomalies.push(applied.anomalies);
  }
  return { replica: replica!, anomalies };
}

describe("applyEvent: every v3 event kind", () => {
  it("rebuilds the platform's snapshot from create, PATCHes, caller, track, agency and close events", () => {
    const created = makeSnapshot({
      caller: { ...makeSnapshot().caller, tracks: [{ source: "MobileApp", track: [measuredLocation(59.96, 10.75)] }] },
    });
    const id = created.id;
    const p = { incidentId: id };
    const chat = { state: "Active" as const, activatedAtUtc: at, portalUrl: "http://x/chat" };
    const liveVideo = { state: "Active" as const, activatedAtUtc: at, endedAtUtc: null, portalUrl: "http://x/video" };
    const deviceInfo = {
      batteryLevel: 40,
      operatingSystem: "Android",
      operatingSystemVersion: "15",
      internetConnectionType: "Cellular4G" as const,
      liveVideoSupport: true,
      automaticDetections: { crashDetected: false, fallDetected: false },
    };
    const agency = {
      id: EMS,
      displayName: "Central EMS",
      collaboration: "Pending" as const,
      invitedBy: { id: created.involvedAgencies[0]!.id, displayName: "North PSAP" },
    };
    const { replica, anomalies } = run(
      null,
      { flag: "incident.created", params: {}, body: { incident: created } },
      { flag: "labelChanged", params: p, body: { label: "Fall, 3rd floor" } },
      { flag: "summaryChanged", params: p, body: { summary: "Elderly person fell" } },
      { flag: "callSignChanged", params: p, body: { callSign: "A-12" } },
      { flag: "patient.descriptionChanged", params: p, body: { description: "conscious" } },
      { flag: "caller.fullNameChanged", params: p, body: { fullName: "Ola Nordmann" } },
      { flag: "caller.phoneNumberChanged", params: p, body: { phoneNumber: "+4711111111" } },
      { flag: "caller.deviceInfoChanged", params: p, body: { deviceInfo } },
      { flag: "caller.newLocation", params: p, body: { location: measuredLocation(59.961, 10.751) } },
      { flag: "caller.trackReplaced", params: p, body: { source: "Entered", track: [knownLocation(59.97, 10.76)] } },
      { flag: "caller.newLocation", params: p, body: { location: knownLocation(59.971, 10.761) } },
      { flag: "caller.chat.activated", params: p, body: { chat } },
      { flag: "caller.liveVideo.activated", params: p, body: { liveVideo } },
      { flag: "caller.liveVideo.ended", params: p, body: null },
      { flag: "involvedAgency.invited", params: p, body: { agency } },
      {
        flag: "involvedAgency.collaboration.changed",
        params: { incidentId: id, agencyId: EMS },
        body: { collaboration: "Accepted" },
      },
      { flag: "labelChanged", params: p, body: { label: null } },
      { flag: "incident.changed", params: p, body: { event: "PUT caller", openUrl: created.openUrl } },
      { flag: "incident.closed", params: p, body: { closedAtUtc: at } },
    );
    expect(anomalies.flat()).toEqual([]);
    const platform = structuredClone(created);
    Object.assign(platform, {
      label: null,
      summary: "Elderly person fell",
      callSign: "A-12",
      patient: { description: "conscious" },
    });
    Object.assign(platform.caller, {
      fullName: "Ola Nordmann",
      phoneNumber: "+4711111111",
      deviceInfo,
      chat,
      liveVideo: { ...liveVideo, state: "Ended", endedAtUtc: at },
      tracks: [
        { source: "MobileApp", track: [measuredLocation(59.96, 10.75), measuredLocation(59.961, 10.751)] },
        { source: "Entered", track: [knownLocation(59.97, 10.76), knownLocation(59.971, 10.761)] },
      ],
    });
    platform.involvedAgencies.push({ ...agency, collaboration: "Accepted" });
    expect(diffReplica(replica.snapshot, platform)).toEqual([]);
    expect(replica.closedAtUtc).toBe(at);
    expect(replica.fullSources).toEqual(["MobileApp", "Entered"]);
  });

  it("PUT caller replaces the composed caller (the body is the caller object itself) and its tracks count as received in full", () => {
    const created = makeSnapshot();
    const caller = {
      ...created.caller,
      fullName: "Kari",
      tracks: [{ source: "Aml" as const, track: [measuredLocation(59.9, 10.7, "Aml")] }],
    };
    const { replica, anomalies } = run(
      null,
      { flag: "incident.created", params: {}, body: { incident: created } },
      { flag: "caller.changed", params: { incidentId: created.id }, body: caller },
      {
        flag: "caller.newLocation",
        params: { incidentId: created.id },
        body: { location: measuredLocation(59.91, 10.71, "Aml") },
      },
    );
    expect(anomalies.flat()).toEqual([]);
    expect(replica.snapshot.caller.fullName).toBe("Kari");
    expect(replica.snapshot.caller.tracks[0]!.track).toHaveLength(2);
  });
});

describe("applyEvent: anomalies", () => {
  it("PUT caller wrapped as {caller} is not the contract's body: flagged, never applied", () => {
    const created = makeSnapshot();
    const caller = { ...created.caller, fullName: "Kari" };
    const { replica, anomalies } = run(
      null,
      { flag: "incident.created", params: {}, body: { incident: created } },
      { flag: "caller.changed", params: { incidentId: created.id }, body: { caller } },
    );
    expect(anomalies[1]!.length).toBeGreaterThan(0);
    expect(replica.snapshot.caller.fullName).toBe(created.caller.fullName);
  });

  const created = makeSnapshot();
  const p = { incidentId: created.id };
  const start = () =>
    applyEvent(null, { flag: "incident.created", params: {}, body: { incident: created }, requestTimestamp: at })
      .replica;

  it("an append for a source not received in full is a hole (Endpoints rule 5)", () => {
    const { replica, anomalies } = run(start(), {
      flag: "caller.newLocation",
      params: p,
      body: { location: measuredLocation(59.96, 10.75, "GoogleEls") },
    });
    expect(anomalies).toEqual([["hole:GoogleEls"]]);
    expect(replica.snapshot.caller.tracks).toEqual([
      { source: "GoogleEls", track: [measuredLocation(59.96, 10.75, "GoogleEls")] },
    ]);
  });

  it("a missing key is flagged, never taken for a cleared value", () => {
    const replica = run(start(), { flag: "labelChanged", params: p, body: { label: "kept" } }).replica;
    const { replica: after, anomalies } = run(replica, { flag: "labelChanged", params: p, body: {} });
    expect(anomalies).toEqual([["missing-key:label"]]);
    expect(after.snapshot.label).toBe("kept");
    const withoutMedic = structuredClone(created) as unknown as { caller: Record<string, unknown> };
    delete withoutMedic.caller.medicData;
    expect(
      applyEvent(null, { flag: "incident.created", params: {}, body: { incident: withoutMedic }, requestTimestamp: at })
        .anomalies,
    ).toEqual(["missing-key:incident.caller.medicData"]);
  });

  it("an empty track is flagged and not applied", () => {
    const { replica, anomalies } = run(start(), {
      flag: "caller.trackReplaced",
      params: p,
      body: { source: "Entered", track: [] },
    });
    expect(anomalies).toEqual([["empty-track:track"]]);
    expect(replica.snapshot.caller.tracks).toEqual([]);
  });

  it("an event for an unknown incident, an unknown agency, or after close", () => {
    expect(
      applyEvent(null, { flag: "summaryChanged", params: p, body: { summary: "s" }, requestTimestamp: at }),
    ).toEqual({ replica: null, anomalies: ["unknown-incident"] });
    expect(
      run(start(), {
        flag: "involvedAgency.collaboration.changed",
        params: { ...p, agencyId: EMS },
        body: { collaboration: "Accepted" },
      }).anomalies,
    ).toEqual([[`unknown-agency:${EMS}`]]);
    expect(
      run(
        start(),
        { flag: "incident.closed", params: p, body: { closedAtUtc: at } },
        { flag: "labelChanged", params: p, body: { label: "late" } },
      ).anomalies,
    ).toEqual([[], ["after-close:labelChanged"]]);
  });

  it("a blank string is invalid (the service never sends one)", () => {
    expect(run(start(), { flag: "callSignChanged", params: p, body: { callSign: "  " } }).anomalies[0]).toEqual([
      expect.stringMatching(/^invalid-body:callSign/),
    ]);
  });
});

describe("applyEventInPlace", () => {
  it("makes a create's incident the replica itself, where applyEvent copies it", () => {
    const delivery: Delivery = {
      flag: "incident.created",
      params: {},
      body: { incident: makeSnapshot() },
      requestTimestamp: at,
    };
    const incident = (delivery.body as { incident: unknown }).incident;
    expect(applyEvent(null, delivery).replica!.snapshot).not.toBe(incident);
    expect(applyEventInPlace(null, delivery).replica!.snapshot).toBe(incident);
  });

  it("changes the replica it is given as applyEvent changes a copy, and says whether it did", () => {
    const created = makeSnapshot({
      caller: { ...makeSnapshot().caller, tracks: [{ source: "Entered", track: [knownLocation(0, 0)] }] },
    });
    const p = { incidentId: created.id };
    const events: Delivery[] = [
      { flag: "incident.created", params: {}, body: { incident: created }, requestTimestamp: at },
      {
        flag: "caller.trackReplaced",
        params: p,
        body: { source: "Entered", track: [knownLocation(1, 1)] },
        requestTimestamp: at,
      },
      { flag: "caller.newLocation", params: p, body: { location: knownLocation(2, 2) }, requestTimestamp: at },
      { flag: "labelChanged", params: p, body: {}, requestTimestamp: at }, // missing key: not applied
      { flag: "summaryChanged", params: p, body: { summary: "s" }, requestTimestamp: at },
    ];
    let pure: Replica | null = null;
    let owned: Replica | null = null;
    const changed: boolean[] = [];
    for (const e of events) {
      const before = structuredClone(pure);
      const copy = applyEvent(pure, structuredClone(e));
      expect(pure).toEqual(before); // the pure one never touches its input
      pure = copy.replica;
      const inPlace = applyEventInPlace(owned, structuredClone(e));
      if (owned && inPlace.changed) expect(inPlace.replica).toBe(owned);
      owned = inPlace.replica;
      changed.push(inPlace.changed);
      expect(inPlace.anomalies).toEqual(copy.anomalies);
    }
    expect(changed).toEqual([true, true, true, false, true]);
    expect(owned).toEqual(pure);
    expect(owned!.snapshot.caller.tracks[0]!.track).toHaveLength(2); // replaced by one, then one appended
  });
});
