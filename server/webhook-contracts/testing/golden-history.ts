// One incident history with every member distinctive, for the golden tests
// (the same changes rendered as v1, v2 and v3 bodies) and the rename-coverage
// test. Fixed ids and times: the renderings are byte-stable.
import type { IncidentChange, IncidentChangeKind } from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3, TLocation } from "../../incidents/snapshot.schema.ts";
import { buildSnapshot, EMS, FIRE, NORTH } from "../../webhooks/testing/build-change.ts";

export const GOLDEN_INCIDENT = "7f3c2a10-0000-4000-8000-0000000000a1";
const t = (m: number) => `2026-11-22T06:${String(m).padStart(2, "0")}:00.000Z`;

export const gps = (m: number, lat: number): TLocation => ({
  type: "Measured",
  accuracy: 8,
  altitude: 21.5,
  altitudeAccuracy: 3,
  latitude: lat,
  longitude: 24.94,
  capturedAtUtc: t(m),
  receivedAtUtc: t(m),
  source: "MobileApp",
});
const sms: TLocation = {
  type: "Measured",
  accuracy: 30,
  altitude: null,
  altitudeAccuracy: null,
  latitude: 60.18,
  longitude: 24.95,
  capturedAtUtc: t(2),
  receivedAtUtc: t(2),
  source: "MobileAppSms",
};
const pin: TLocation = {
  type: "Known",
  latitude: 60.19,
  longitude: 24.96,
  capturedAtUtc: t(1),
  receivedAtUtc: t(1),
  source: "Entered",
};

/** The incident as created: every caller member filled with a distinctive value. */
export function goldenSnapshot(): TIncidentSnapshotV3 {
  const base = buildSnapshot({ id: GOLDEN_INCIDENT });
  return {
    ...base,
    purpose: "Test",
    createdAtUtc: t(0),
    label: "Kitchen fire",
    summary: "Smoke in stairwell",
    callSign: "F-12",
    patient: { description: "adult, conscious" },
    involvedAgencies: [
      { id: FIRE, displayName: "Fire and Rescue", collaboration: "Owner", invitedBy: null },
      {
        id: NORTH,
        displayName: "North PSAP",
        collaboration: "Accepted",
        invitedBy: { id: FIRE, displayName: "Fire and Rescue" },
      },
    ],
    caller: {
      ...base.caller,
      dataSources: {
        mobileApp: { appInfo: { name: "SafetyApp", version: "5.1" } },
        webApp: null,
        appleEed: null,
        googleEls: null,
      },
      deviceInfo: {
        batteryLevel: 41,
        operatingSystem: "Android",
        operatingSystemVersion: "15",
        internetConnectionType: "Cellular4G",
        liveVideoSupport: true,
        automaticDetections: { crashDetected: false, fallDetected: true },
      },
      fullName: "Ada Caller",
      phoneNumber: "+358401234567",
      email: "ada@example.test",
      insuranceNumber: "INS-7",
      languages: ["fi", "en"],
      permanentResidence: { address: "Pier 4", coordinates: { latitude: 60.2, longitude: 24.9 } },
      contacts: [{ name: "Bo Caller", phoneNumber: "+358409999999", relation: "spouse" }],
      reportedProblems: { ...base.caller.reportedProblems, fire: true, trapped: true },
      medicData: {
        person: { sex: "Female", height: 168, weight: 61, yearOfBirth: 1984 },
        conditions: {
          diabetes: { reported: true },
          epilepsy: { reported: false },
          heart: { reported: true },
          lungs: { reported: false },
          psychiatric: { reported: true },
          description: "type 1",
          pregnancy: { reported: true, description: "week 30" },
        },
        assistance: {
          hearing: { reported: true },
          vision: { reported: false },
          speech: { reported: true },
          description: "hearing aid",
        },
        notes: { caller: "allergic to smoke?" },
        medications: "insulin",
        allergies: "penicillin",
        organDonation: { status: "Donor", description: "card in wallet" },
        advanceDirectives: "none known",
      },
      tracks: [
        { source: "MobileApp", track: [gps(1, 60.17), gps(3, 60.171)] },
        { source: "Entered", track: [pin] },
        { source: "MobileAppSms", track: [sms] },
      ],
    },
  };
}

/** The history: each step mutates a copy of the previous snapshot and names the change. */
export function goldenHistory(): IncidentChange[] {
  const steps: Array<[IncidentChangeKind, (s: TIncidentSnapshotV3) => void]> = [
    [{ kind: "incident.created" }, () => {}],
    [
      { kind: "labelChanged" },
      (s) => {
        s.label = "Kitchen fire, 2nd floor";
      },
    ],
    [
      { kind: "caller.newLocation", source: "MobileApp", location: gps(5, 60.172) },
      (s) => {
        s.caller.tracks[0]!.track.push(gps(5, 60.172));
      },
    ],
    [
      { kind: "caller.deviceInfoChanged" },
      (s) => {
        s.caller.deviceInfo = { ...s.caller.deviceInfo!, batteryLevel: 35, internetConnectionType: "Cellular5G" };
      },
    ],
    [
      { kind: "involvedAgency.invited", agencyId: EMS },
      (s) => {
        s.involvedAgencies.push({
          id: EMS,
          displayName: "Central EMS",
          collaboration: "Pending",
          invitedBy: { id: FIRE, displayName: "Fire and Rescue" },
        });
      },
    ],
    [
      { kind: "caller.liveVideo.activated" },
      (s) => {
        s.caller.liveVideo = {
          state: "Active",
          activatedAtUtc: t(7),
          endedAtUtc: null,
          portalUrl: `http://localhost:3000/portal/incidents/${GOLDEN_INCIDENT}/video`,
        };
      },
    ],
    [
      { kind: "caller.changed", what: "medicData" },
      (s) => {
        s.caller.medicData!.allergies = "penicillin, latex";
      },
    ],
    [{ kind: "incident.closed", closedAtUtc: t(9) }, () => {}],
  ];
  let snapshot = goldenSnapshot();
  return steps.map(([kind, mutate], i) => {
    snapshot = structuredClone(snapshot);
    mutate(snapshot);
    return { ...kind, incidentId: GOLDEN_INCIDENT, seq: i + 1, producedAt: new Date(t(i)), actor: "golden", snapshot };
  });
}

/** Deterministic request ids for stable goldens. */
export function sequentialIds(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
}
