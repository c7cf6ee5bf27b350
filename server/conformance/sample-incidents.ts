// Valid v3 bodies for the kit's deliveries, built on the snapshot schema (the
// unit test parses each with it). The kit never sends purpose Real: its
// incidents are Demo ("handle like a real incident", so the receiver's normal
// path runs, yet they are training data) and one Test incident. Labels say
// plainly that they come from a conformance run.
import { randomUUID } from "node:crypto";
import {
  emptyCaller,
  REPORTED_PROBLEMS,
  type TCaller,
  type TIncidentSnapshotV3,
  type TLocation,
  type TLocationSource,
  type TTrack,
} from "../incidents/snapshot.schema.ts";

export type SampleDeps = { now: () => Date; portalUrl: string; agency: { id: string; displayName: string } };

const LABEL = "Conformance run: not an emergency";

/** A Measured fix from a caller's device; `metres` is its accuracy. */
export function measuredLocation(
  deps: SampleDeps,
  options: { source?: TLocationSource; metres?: number; offset?: number } = {},
): TLocation {
  const at = deps.now().toISOString();
  const d = options.offset ?? 0;
  return {
    type: "Measured",
    accuracy: options.metres ?? 12,
    altitude: null,
    altitudeAccuracy: null,
    latitude: 59.9712 + d * 0.0001,
    longitude: 10.7755 + d * 0.0001,
    capturedAtUtc: at,
    receivedAtUtc: at,
    source: options.source ?? "MobileApp",
  };
}

/** A Known (entered) location: accuracy, altitude and altitudeAccuracy are absent, not null. */
export function knownLocation(deps: SampleDeps, offset = 0): TLocation {
  const at = deps.now().toISOString();
  return {
    type: "Known",
    latitude: 59.9651 + offset * 0.0001,
    longitude: 10.7602 + offset * 0.0001,
    capturedAtUtc: at,
    receivedAtUtc: at,
    source: "Entered",
  };
}

/** The tracks of a caller seen by the mobile app (two fixes) and by a dispatcher pin (Known). */
export function sampleTracks(deps: SampleDeps): TTrack[] {
  return [
    {
      source: "MobileApp",
      track: [measuredLocation(deps, { metres: 65 }), measuredLocation(deps, { metres: 8, offset: 1 })],
    },
    { source: "Entered", track: [knownLocation(deps)] },
  ];
}

/** A caller with every group filled in: device, app, medical data, residence, contacts. */
export function fullCaller(deps: SampleDeps, tracks: TTrack[]): TCaller {
  const caller = emptyCaller("+4799900000");
  return {
    ...caller,
    dataSources: {
      mobileApp: { appInfo: { name: "Conformance Caller", version: "3.0.0" } },
      webApp: null,
      appleEed: null,
      googleEls: null,
    },
    deviceInfo: {
      batteryLevel: 64,
      operatingSystem: "Android",
      operatingSystemVersion: "15",
      internetConnectionType: "Cellular5G",
      liveVideoSupport: true,
      automaticDetections: { crashDetected: false, fallDetected: false },
    },
    fullName: "Kari Nordmann",
    email: "kari@example.invalid",
    insuranceNumber: null,
    languages: ["nb", "en"],
    permanentResidence: { address: "Storgata 1, 0155 Oslo", coordinates: { latitude: 59.913, longitude: 10.752 } },
    contacts: [{ name: "Ola Nordmann", phoneNumber: "+4799900001", relation: "Spouse" }],
    reportedProblems: {
      ...(Object.fromEntries(REPORTED_PROBLEMS.map((p) => [p, false])) as TCaller["reportedProblems"]),
      fall: true,
    },
    medicData: {
      person: { sex: "Female", height: 168, weight: 61, yearOfBirth: 1958 },
      conditions: {
        diabetes: { reported: true },
        epilepsy: { reported: false },
        heart: { reported: false },
        lungs: { reported: false },
        psychiatric: { reported: false },
        description: "Type 2 diabetes",
        pregnancy: { reported: false, description: null },
      },
      assistance: {
        hearing: { reported: false },
        vision: { reported: true },
        speech: { reported: false },
        description: "Reading glasses",
      },
      notes: { caller: null },
      medications: "Metformin",
      allergies: null,
      organDonation: { status: "Unknown", description: null },
      advanceDirectives: null,
    },
    tracks,
  };
}

/** A whole snapshot. `purpose` defaults to Demo; `nullable` makes every nullable member null and every list empty. */
export function sampleIncident(
  deps: SampleDeps,
  options: { purpose?: "Demo" | "Test"; tracks?: TTrack[]; nullable?: boolean } = {},
): TIncidentSnapshotV3 {
  const id = randomUUID();
  const nullable = options.nullable ?? false;
  return {
    id,
    purpose: options.purpose ?? "Demo",
    openUrl: `${deps.portalUrl}/portal/incidents/${id}`,
    createdAtUtc: deps.now().toISOString(),
    caller: nullable ? emptyCaller(null) : fullCaller(deps, options.tracks ?? []),
    involvedAgencies: [
      { id: deps.agency.id, displayName: deps.agency.displayName, collaboration: "Owner", invitedBy: null },
    ],
    label: nullable ? null : LABEL,
    summary: nullable ? null : "Fall at home; caller conscious.",
    callSign: nullable ? null : "CONF-1",
    patient: { description: nullable ? null : "Woman, about 65, conscious" },
  };
}
