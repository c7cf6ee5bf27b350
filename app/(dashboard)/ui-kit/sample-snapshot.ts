// Realistic fixtures for /ui-kit (and its Playwright spec): a Test incident in Vienna whose caller
// is located first by AML, then by the mobile app as they walk, plus an address the call-taker entered.
import { emptyCaller, type TIncidentSnapshotV3, type TLocation } from "@/server/incidents/snapshot.schema";

const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 6, 0, 0) + s * 1000).toISOString();

const measured = (
  source: TLocation["source"],
  s: number,
  latitude: number,
  longitude: number,
  accuracy: number,
): TLocation => ({
  type: "Measured",
  accuracy,
  altitude: null,
  altitudeAccuracy: null,
  latitude,
  longitude,
  capturedAtUtc: t(s),
  receivedAtUtc: t(s + 2),
  source,
});

export const SAMPLE_SNAPSHOT: TIncidentSnapshotV3 = {
  id: "7d1e2f30-4a5b-4c6d-8e9f-000000000042",
  purpose: "Test",
  openUrl: "http://localhost:3000/portal/incidents/7d1e2f30-4a5b-4c6d-8e9f-000000000042",
  createdAtUtc: t(0),
  caller: {
    dataSources: {
      mobileApp: { appInfo: { name: "Rescue Now", version: "5.12.0" } },
      webApp: null,
      appleEed: { hasLocation: true, hasLiveVideo: false, hasMediaUpload: false, hasAdditionalData: true },
      googleEls: null,
    },
    deviceInfo: {
      batteryLevel: 14,
      operatingSystem: "iOS",
      operatingSystemVersion: "19.1",
      internetConnectionType: "Cellular5G",
      liveVideoSupport: true,
      automaticDetections: { crashDetected: false, fallDetected: true },
    },
    fullName: "Anna Huber",
    phoneNumber: "+43 660 1234567",
    email: "anna.huber@example.at",
    insuranceNumber: "1234 010180",
    languages: ["de-AT", "en"],
    permanentResidence: {
      address: "Praterstraße 12, 1020 Wien",
      coordinates: { latitude: 48.2146, longitude: 16.3849 },
    },
    contacts: [
      { name: "Markus Huber", phoneNumber: "+43 664 7654321", relation: "husband" },
      { name: "Dr. Leitner", phoneNumber: null, relation: "GP" },
    ],
    reportedProblems: { ...emptyCaller(null).reportedProblems, chestPain: true, fall: true },
    medicData: {
      person: { sex: "Female", height: 168, weight: 61, yearOfBirth: 1958 },
      conditions: {
        diabetes: { reported: true },
        epilepsy: { reported: false },
        heart: { reported: true },
        lungs: { reported: false },
        psychiatric: { reported: false },
        description: "Stent 2021",
        pregnancy: { reported: false, description: null },
      },
      assistance: {
        hearing: { reported: true },
        vision: { reported: false },
        speech: { reported: false },
        description: "Hearing aid, left ear",
      },
      notes: { caller: "Key under the doormat." },
      medications: "Metformin 500 mg, ASS 100 mg",
      allergies: "Penicillin",
      organDonation: { status: "Donor", description: null },
      advanceDirectives: null,
    },
    chat: { state: "Active", activatedAtUtc: t(95), portalUrl: "http://localhost:3000/portal/chat/7d1e2f30" },
    liveVideo: {
      state: "Ended",
      activatedAtUtc: t(130),
      endedAtUtc: t(410),
      portalUrl: "http://localhost:3000/portal/video/7d1e2f30",
    },
    tracks: [
      { source: "Aml", track: [measured("Aml", 4, 48.217, 16.3952, 310), measured("Aml", 40, 48.216, 16.3931, 48)] },
      {
        source: "MobileApp",
        track: [
          measured("MobileApp", 60, 48.2163, 16.3921, 35),
          measured("MobileApp", 120, 48.2158, 16.3905, 18),
          measured("MobileApp", 180, 48.2152, 16.3888, 12),
          measured("MobileApp", 240, 48.2149, 16.387, 9),
          measured("MobileApp", 300, 48.2147, 16.3856, 6),
        ],
      },
      {
        source: "Entered",
        track: [
          {
            type: "Known",
            latitude: 48.2146,
            longitude: 16.3849,
            capturedAtUtc: t(200),
            receivedAtUtc: t(200),
            source: "Entered",
          },
        ],
      },
    ],
  },
  involvedAgencies: [
    { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP", collaboration: "Owner", invitedBy: null },
    {
      id: "0b0c5b52-1c0e-4a57-9a57-000000000002",
      displayName: "City Ambulance Service",
      collaboration: "Accepted",
      invitedBy: { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP" },
    },
    {
      id: "0b0c5b52-1c0e-4a57-9a57-000000000003",
      displayName: "Fire Brigade District 2",
      collaboration: "Pending",
      invitedBy: { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP" },
    },
  ],
  label: "Chest pain after fall, Praterstraße",
  summary: "Caller fell on the stairs, now chest pain and short of breath. Walking home, ambulance dispatched.",
  callSign: "RTW-21",
  patient: { description: "Woman, about 68, blue coat" },
};

/** The snapshot one change earlier: what JsonDiffView compares against. */
export const SAMPLE_PREVIOUS: TIncidentSnapshotV3 = {
  ...SAMPLE_SNAPSHOT,
  label: "Chest pain",
  caller: {
    ...SAMPLE_SNAPSHOT.caller,
    fullName: null,
    deviceInfo: { ...SAMPLE_SNAPSHOT.caller.deviceInfo!, batteryLevel: 21 },
    contacts: SAMPLE_SNAPSHOT.caller.contacts.slice(0, 1),
    tracks: SAMPLE_SNAPSHOT.caller.tracks.slice(0, 2),
  },
  involvedAgencies: SAMPLE_SNAPSHOT.involvedAgencies.slice(0, 2),
};

/** A Real incident right after creation: almost everything null, to show "—" and "not known". */
export const SAMPLE_SPARSE: TIncidentSnapshotV3 = {
  id: "7d1e2f30-4a5b-4c6d-8e9f-000000000043",
  purpose: "Real",
  openUrl: "http://localhost:3000/portal/incidents/7d1e2f30-4a5b-4c6d-8e9f-000000000043",
  createdAtUtc: t(600),
  caller: emptyCaller("+43 1 5555555"),
  involvedAgencies: [
    { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP", collaboration: "Owner", invitedBy: null },
  ],
  label: null,
  summary: null,
  callSign: null,
  patient: { description: null },
};
