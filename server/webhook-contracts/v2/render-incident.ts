// v3 snapshot → v2 incident, pure. Each step is one rename (or group of
// renames) of the spec's Versioning rules 4–6; renames.ts lists them and the
// rename-coverage test proves each one on a rendered body.
import type {
  TCaller,
  TDeviceInfo,
  TIncidentSnapshotV3,
  TInvolvedAgency,
  TLocation,
  TLocationSource,
  TMedicData,
  TTrack,
} from "../../incidents/snapshot.schema.ts";
import type { TemporaryWarning } from "../../incidents/incident-state.ts";
import { withoutTemporaryInformation } from "../../incidents/temporary-information.ts";
import {
  V2_APP_TYPE,
  type TIncidentV2,
  type TPositionSourceV2,
  type TPositionV2,
  type TTrackV2,
} from "./incident.schema.ts";

/** Rule 5 (Manual, MobileAppSms folded into MobileApp); the other sources keep their names. */
export const V2_SOURCE_OF: Record<TLocationSource, TPositionSourceV2> = {
  Entered: "Manual",
  MobileApp: "MobileApp",
  MobileAppSms: "MobileApp",
  WebApp: "WebApp",
  Aml: "Aml",
  GoogleEls: "GoogleEls",
};

export const V2_CONNECTION_TYPE_OF = {
  Cellular2G: "G2",
  Cellular3G: "G3",
  Cellular4G: "G4",
  Cellular5G: "G5",
  Wifi: "Wifi",
  Unknown: "Unknown",
} as const;

/** The v3 sources whose tracks make up one v2 track (MobileApp and MobileAppSms share one). */
export function v3SourcesOf(source: TPositionSourceV2): TLocationSource[] {
  return (Object.keys(V2_SOURCE_OF) as TLocationSource[]).filter((s) => V2_SOURCE_OF[s] === source);
}

export function renderPosition(location: TLocation): TPositionV2 {
  const common = {
    latitude: location.latitude,
    longitude: location.longitude,
    captureAtUtc: location.capturedAtUtc,
    receivedAtUtc: location.receivedAtUtc,
    positionSource: V2_SOURCE_OF[location.source],
  };
  if (location.type === "Known") return { type: "Known", ...common };
  return {
    type: "Measured",
    accuracy: location.accuracy,
    altitude: location.altitude,
    verticalAccuracy: location.altitudeAccuracy,
    ...common,
  };
}

/**
 * One v2 track per v2 source. Folded tracks (MobileApp + MobileAppSms) are merged
 * in order of receipt (receivedAtUtc, stable): a new location is always the latest
 * received, so an append lands at the end of the merged track too (rule 5 holds).
 */
export function renderTracks(tracks: TTrack[]): TTrackV2[] {
  const bySource = new Map<TPositionSourceV2, Array<{ at: string; i: number; position: TPositionV2 }>>();
  let i = 0;
  for (const t of tracks) {
    const v2 = V2_SOURCE_OF[t.source];
    const list = bySource.get(v2) ?? [];
    for (const l of t.track) list.push({ at: l.receivedAtUtc, i: i++, position: renderPosition(l) });
    bySource.set(v2, list);
  }
  return [...bySource]
    .filter(([, list]) => list.length > 0)
    .map(([positionSource, list]) => ({
      positionSource,
      track: list.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i)).map((x) => x.position),
    }));
}

export function renderDeviceInfo(d: TDeviceInfo | null): TIncidentV2["deviceInfo"] {
  const nulls = { deviceId: null, deviceName: null, manufacturer: null } as const;
  if (!d) {
    return {
      batteryLevel: null,
      operatingSystem: null,
      operatingSystemVersion: null,
      internetConnectionType: null,
      liveVideoSupport: null,
      automaticDetections: { crashDetected: false, fallDetected: false },
      ...nulls,
    };
  }
  return {
    ...d,
    internetConnectionType: d.internetConnectionType === null ? null : V2_CONNECTION_TYPE_OF[d.internetConnectionType],
    automaticDetections: { ...d.automaticDetections },
    ...nulls,
  };
}

/** Rule 6, "other": what v3 split out of it, one labelled line each, in the rule's order; null when all are empty. */
export function renderOtherMedical(m: TMedicData): string | null {
  const lines: Array<[string, string | null]> = [
    ["Allergies", m.allergies],
    ["Advance directives", m.advanceDirectives],
    ["Conditions", m.conditions.description],
    ["Pregnancy", m.conditions.pregnancy.reported ? (m.conditions.pregnancy.description ?? "reported") : null],
    ["Assistance", m.assistance.description],
    [
      "Organ donation",
      m.organDonation.status === "Unknown" && !m.organDonation.description
        ? null
        : [m.organDonation.status, m.organDonation.description].filter(Boolean).join(": "),
    ],
    ["Caller notes", m.notes.caller],
  ];
  const text = lines
    .filter(([, v]) => v !== null && v.trim() !== "")
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n");
  return text === "" ? null : text;
}

export function renderMedicalData(m: TMedicData | null): TIncidentV2["caller"]["medicalData"] {
  if (!m) return null;
  return {
    hearingImpairment: m.assistance.hearing.reported,
    blind: m.assistance.vision.reported,
    speechDefect: m.assistance.speech.reported,
    diabetes: m.conditions.diabetes.reported,
    epilepsy: m.conditions.epilepsy.reported,
    heart: m.conditions.heart.reported,
    lungs: m.conditions.lungs.reported,
    mentalDisorders: m.conditions.psychiatric.reported,
    regularPrescription: m.medications,
    other: renderOtherMedical(m),
    lastUpdatedUtc: null,
  };
}

/** Rule 4: age in years from the birth year, at the moment the event is produced (a birthday is not known: year difference). */
export function ageAt(yearOfBirth: number | null, at: Date): number | null {
  return yearOfBirth === null ? null : Math.max(0, at.getUTCFullYear() - yearOfBirth);
}

/** v3's data sources with v2's appInfo.type put back (decision 0047). */
export function renderDataSources(d: TCaller["dataSources"]): TIncidentV2["caller"]["dataSources"] {
  const copy = structuredClone(d);
  return { ...copy, mobileApp: copy.mobileApp && { appInfo: { type: V2_APP_TYPE, ...copy.mobileApp.appInfo } } };
}

/**
 * `temporary`: the caller's warning (decision 0063). v3 merges it into medicData.notes.caller while
 * unexpired; the frozen v2 contract has a member of its own for it, so v2 gets it there (while
 * unexpired at the event's production) and the caller's own notes in medicalData.other, as before
 * the merge.
 */
export function renderCaller(c: TCaller, at: Date, temporary: TemporaryWarning | null = null): TIncidentV2["caller"] {
  const medicData = temporary ? withoutTemporaryInformation(c.medicData, temporary) : c.medicData;
  const unexpired = temporary && Date.parse(temporary.expiresAtUtc) > at.getTime() ? temporary : null;
  const person = medicData?.person ?? null;
  return {
    dataSources: renderDataSources(c.dataSources),
    fullname: c.fullName,
    phoneNumbers: c.phoneNumber === null ? [] : [c.phoneNumber],
    email: c.email,
    insuranceNumber: c.insuranceNumber,
    languages: [...c.languages],
    permanentResidence: c.permanentResidence && {
      address: c.permanentResidence.address,
      geoPoint: c.permanentResidence.coordinates && { ...c.permanentResidence.coordinates },
    },
    contacts: c.contacts.map((x) => ({ ...x })),
    gender: person?.sex ?? null,
    height: person?.height ?? null,
    weight: person?.weight ?? null,
    age: ageAt(person?.yearOfBirth ?? null, at),
    medicalData: renderMedicalData(medicData),
    temporaryInformation: unexpired && { text: unexpired.warning, expiresAtUtc: unexpired.expiresAtUtc },
    chat: c.chat && { ...c.chat },
    liveVideo: c.liveVideo && { ...c.liveVideo },
    tracks: renderTracks(c.tracks),
  };
}

export function renderPsap(a: TInvolvedAgency): TIncidentV2["psaps"][number] {
  return {
    psapId: a.id,
    name: a.displayName,
    collaboration: a.collaboration,
    invitedBy: a.invitedBy && { psapId: a.invitedBy.id, name: a.invitedBy.displayName },
  };
}

/** The whole v2 incident; `at` is the event's production time (for age); `temporary`: the caller's warning. */
export function renderIncidentV2(
  s: TIncidentSnapshotV3,
  at: Date,
  temporary: TemporaryWarning | null = null,
): TIncidentV2 {
  const { trapped, ...problems } = s.caller.reportedProblems;
  return {
    id: s.id,
    isTest: s.purpose === "Test",
    openUrl: s.openUrl,
    createdTimeUtc: s.createdAtUtc,
    classification: { ...problems, deadlock: trapped },
    deviceInfo: renderDeviceInfo(s.caller.deviceInfo),
    caller: renderCaller(s.caller, at, temporary),
    psaps: s.involvedAgencies.map(renderPsap),
    label: s.label,
    summary: s.summary,
    callSign: s.callSign,
    patient: { description: s.patient.description },
  };
}
