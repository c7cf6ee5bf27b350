// The v2 incident as a legacy receiver gets it, DERIVED from the v3 snapshot
// (server/incidents/snapshot.schema.ts) through every rename of the spec's
// Versioning rules 4–6 (platform-interface.md). Members the spec does not
// rename keep their v3 names and shapes (the renames are the whole list of
// differences the spec names); where a renamed member's v2 shape is "not
// shown", the choice is ours and listed in V2_SHAPE_DECISIONS, which the
// generated JSON Schema document carries.
//
// Same rule as v3: every delivered property is present, a nullable one is null.
import { z } from "zod";
import {
  COLLABORATION_STATES,
  REPORTED_PROBLEMS,
  ZChat,
  ZDataSources,
  ZLiveVideo,
  ZText,
  ZUtcTimestamp,
} from "../../incidents/snapshot.schema.ts";

/** Rule 5 + rule 2: Entered→Manual, MobileAppSms folded into MobileApp; Eed removed and GoogleEls added (the one correction). */
export const V2_POSITION_SOURCES = ["Manual", "MobileApp", "WebApp", "Aml", "GoogleEls"] as const;
export const ZPositionSourceV2 = z.enum(V2_POSITION_SOURCES);
export type TPositionSourceV2 = z.infer<typeof ZPositionSourceV2>;

/** Rule 5: Cellular2G..5G → G2..G5; Wifi and Unknown are not renamed. */
export const V2_CONNECTION_TYPES = ["G2", "G3", "G4", "G5", "Wifi", "Unknown"] as const;

const lat = z.number().min(-90).max(90);
const lon = z.number().min(-180).max(180);

/** Rule 4: Location→Position, source→positionSource, capturedAtUtc→captureAtUtc, altitudeAccuracy→verticalAccuracy. */
export const ZMeasuredPositionV2 = z.strictObject({
  type: z.literal("Measured"),
  accuracy: z.number().nonnegative(),
  altitude: z.number().nullable(),
  verticalAccuracy: z.number().nonnegative().nullable(),
  latitude: lat,
  longitude: lon,
  captureAtUtc: ZUtcTimestamp,
  receivedAtUtc: ZUtcTimestamp,
  positionSource: ZPositionSourceV2,
});
export const ZKnownPositionV2 = z.strictObject({
  type: z.literal("Known"),
  latitude: lat,
  longitude: lon,
  captureAtUtc: ZUtcTimestamp,
  receivedAtUtc: ZUtcTimestamp,
  positionSource: ZPositionSourceV2,
});
export const ZPositionV2 = z.discriminatedUnion("type", [ZMeasuredPositionV2, ZKnownPositionV2]);
export type TPositionV2 = z.infer<typeof ZPositionV2>;

export const ZTrackV2 = z.strictObject({ positionSource: ZPositionSourceV2, track: z.array(ZPositionV2).min(1) });
export type TTrackV2 = z.infer<typeof ZTrackV2>;

/** Incident-level deviceInfo (rule 4). v2 has no "unknown device" null: every member null instead (decision). */
export const ZDeviceInfoV2 = z.strictObject({
  batteryLevel: z.number().int().min(0).max(100).nullable(),
  operatingSystem: z.string().nullable(),
  operatingSystemVersion: z.string().nullable(),
  internetConnectionType: z.enum(V2_CONNECTION_TYPES).nullable(),
  liveVideoSupport: z.boolean().nullable(),
  automaticDetections: z.strictObject({ crashDetected: z.boolean(), fallDetected: z.boolean() }),
  deviceId: z.null().describe("v3 has no deviceId: always null"),
  deviceName: z.null().describe("v3 has no deviceName: always null"),
  manufacturer: z.null().describe("v3 has no manufacturer: always null"),
});

/** Rule 4: incident classification (v3 caller.reportedProblems) with deadlock for trapped. */
export const V2_CLASSIFICATION_FLAGS = REPORTED_PROBLEMS.map((p) => (p === "trapped" ? "deadlock" : p));
export const ZClassificationV2 = z.strictObject(
  Object.fromEntries(V2_CLASSIFICATION_FLAGS.map((p) => [p, z.boolean()])),
);

/** Rule 6: the old medical flags (v3 medicData moved them); lastUpdatedUtc has no v3 counterpart. */
export const ZMedicalDataV2 = z.strictObject({
  hearingImpairment: z.boolean(),
  blind: z.boolean(),
  speechDefect: z.boolean(),
  diabetes: z.boolean(),
  epilepsy: z.boolean(),
  heart: z.boolean(),
  lungs: z.boolean(),
  mentalDisorders: z.boolean(),
  regularPrescription: z.string().nullable(),
  other: z
    .string()
    .nullable()
    .describe(
      "v3 allergies, advanceDirectives, conditions.description, conditions.pregnancy, assistance.description, organDonation and notes.caller, as labelled lines",
    ),
  lastUpdatedUtc: z.null().describe("no v3 counterpart: always null"),
});

/** The value of v2's appInfo.type, which v3 dropped (decision 0047). */
export const V2_APP_TYPE = "MobileApp";

/** v3's dataSources, with the member v3 dropped (platform-interface.md: "appInfo has no type"). */
export const ZDataSourcesV2 = ZDataSources.extend({
  mobileApp: z
    .strictObject({
      appInfo: z.strictObject({
        type: z
          .literal(V2_APP_TYPE)
          .describe("no v3 counterpart: always MobileApp, the kind of source (decision 0047)"),
        name: ZText,
        version: ZText,
      }),
    })
    .nullable(),
});

/**
 * v2's temporary information: a caller warning with an expiry. v3 merged it into
 * medicData.notes.caller "while unexpired" and keeps neither the split nor the expiry, so it is
 * always null here; the warning still reaches a v2 receiver in medicalData.other ("Caller notes").
 */
export const ZTemporaryInformationV2 = z
  .strictObject({ text: z.string(), expiresAtUtc: ZUtcTimestamp.nullable() })
  .nullable()
  .describe(
    "the caller's warning while unexpired (v3 merges it into medicData.notes.caller; medicalData.other keeps the caller's own notes), else null (decision 0063)",
  );

/** Rule 4: Psap/PsapId (v3 Agency/AgencyId), psap.name (v3 agency.displayName). */
export const ZPsapV2 = z.strictObject({
  psapId: z.uuid(),
  name: z.string(),
  collaboration: z.enum(COLLABORATION_STATES),
  invitedBy: z.strictObject({ psapId: z.uuid(), name: z.string() }).nullable(),
});

export const ZCallerV2 = z.strictObject({
  dataSources: ZDataSourcesV2,
  fullname: z.string().nullable(),
  phoneNumbers: z.array(z.string()).describe("v3 phoneNumber as a list: [] when none resolved"),
  email: z.string().nullable(),
  insuranceNumber: z.string().nullable(),
  languages: z.array(z.string()),
  permanentResidence: z
    .strictObject({
      address: z.string().nullable(),
      geoPoint: z.strictObject({ latitude: lat, longitude: lon }).nullable(),
    })
    .nullable(),
  contacts: z.array(
    z.strictObject({ name: z.string(), phoneNumber: z.string().nullable(), relation: z.string().nullable() }),
  ),
  gender: z.enum(["Female", "Male", "Other"]).nullable(),
  height: z.number().positive().nullable().describe("centimetres"),
  weight: z.number().positive().nullable().describe("kilograms"),
  age: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe("years at the event's production (v3 yearOfBirth: production year − birth year)"),
  medicalData: ZMedicalDataV2.nullable(),
  temporaryInformation: ZTemporaryInformationV2,
  chat: ZChat.nullable(),
  liveVideo: ZLiveVideo.nullable(),
  tracks: z.array(ZTrackV2),
});

export const ZIncidentV2 = z.strictObject({
  id: z.uuid(),
  isTest: z.boolean().describe("true only for purpose Test; Real and Demo are false"),
  openUrl: z.string(),
  createdTimeUtc: ZUtcTimestamp,
  classification: ZClassificationV2,
  deviceInfo: ZDeviceInfoV2,
  caller: ZCallerV2,
  psaps: z.array(ZPsapV2),
  label: z.string().nullable(),
  summary: z.string().nullable(),
  callSign: z.string().nullable(),
  patient: z.strictObject({ description: z.string().nullable() }),
});
export type TIncidentV2 = z.infer<typeof ZIncidentV2>;
