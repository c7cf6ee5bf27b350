// The v3 incident snapshot (platform-interface.md, "Webhook incident snapshot (v3)"),
// with the member names workbench-decisions.md fixes where the spec says "not shown".
// One schema, many uses: it validates what the engine sends, feeds the JSON
// Schema / AsyncAPI documents, and types the incident aggregate.
//
// Rule of the contract: every delivered property is present; a nullable one
// carries null rather than disappearing. So no member here is .optional(),
// except the Known location's absent accuracy/altitude members (spec: "absent (not null)").
import { z } from "zod";

/**
 * Text in a snapshot is never blank (spec: "a cleared nullable text value is delivered as null and
 * a blank string is never sent"). Every path into a snapshot (inbound API, simulator, dashboard)
 * validates its text with these, so an empty or whitespace-only string is refused at the door.
 */
export const NOT_BLANK = /\S/;
export const NOT_BLANK_MESSAGE = "must not be empty or whitespace-only";
export const ZText = z.string().regex(NOT_BLANK, NOT_BLANK_MESSAGE);
/** A text input of at most `max` characters, never blank. */
export const textInput = (max: number) => z.string().max(max).regex(NOT_BLANK, NOT_BLANK_MESSAGE);

export const ZUtcTimestamp = z.iso.datetime({ offset: false }).describe("UTC timestamp, ISO 8601 with Z");

/** workbench-decisions.md: GeoPoint = { latitude, longitude } (WGS84, range-checked). */
export const ZGeoPoint = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
});
export type TGeoPoint = z.infer<typeof ZGeoPoint>;

/** Location sources in tracks (AppleEed exists internally but never appears in tracks). */
export const LOCATION_SOURCES = ["Entered", "MobileApp", "MobileAppSms", "WebApp", "Aml", "GoogleEls"] as const;
export const ZLocationSource = z.enum(LOCATION_SOURCES);
export type TLocationSource = z.infer<typeof ZLocationSource>;

export const ZMeasuredLocation = z.strictObject({
  type: z.literal("Measured"),
  accuracy: z.number().nonnegative().describe("metres, always present"),
  altitude: z.number().nullable(),
  altitudeAccuracy: z.number().nonnegative().nullable(),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  capturedAtUtc: ZUtcTimestamp,
  receivedAtUtc: ZUtcTimestamp,
  source: ZLocationSource,
});

/** Entered, not measured: accuracy, altitude and altitudeAccuracy are absent (not null). */
export const ZKnownLocation = z.strictObject({
  type: z.literal("Known"),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  capturedAtUtc: ZUtcTimestamp,
  receivedAtUtc: ZUtcTimestamp,
  source: ZLocationSource,
});

export const ZLocation = z.discriminatedUnion("type", [ZMeasuredLocation, ZKnownLocation]);
export type TLocation = z.infer<typeof ZLocation>;

export const ZTrack = z.strictObject({ source: ZLocationSource, track: z.array(ZLocation).min(1) });
export type TTrack = z.infer<typeof ZTrack>;

export const INTERNET_CONNECTION_TYPES = [
  "Cellular2G",
  "Cellular3G",
  "Cellular4G",
  "Cellular5G",
  "Wifi",
  "Unknown",
] as const;

export const ZDeviceInfo = z.strictObject({
  batteryLevel: z.number().int().min(0).max(100).nullable().describe("percent"),
  operatingSystem: ZText.nullable(),
  operatingSystemVersion: ZText.nullable(),
  internetConnectionType: z.enum(INTERNET_CONNECTION_TYPES).nullable(),
  liveVideoSupport: z.boolean().nullable(),
  automaticDetections: z.strictObject({ crashDetected: z.boolean(), fallDetected: z.boolean() }),
});
export type TDeviceInfo = z.infer<typeof ZDeviceInfo>;

export const ZDataSources = z.strictObject({
  mobileApp: z.strictObject({ appInfo: z.strictObject({ name: ZText, version: ZText }) }).nullable(),
  webApp: z.strictObject({}).nullable(),
  appleEed: z
    .strictObject({
      hasLocation: z.boolean(),
      hasLiveVideo: z.boolean(),
      hasMediaUpload: z.boolean(),
      hasAdditionalData: z.boolean(),
    })
    .nullable(),
  googleEls: z.strictObject({}).nullable(),
});

/** workbench-decisions.md: the thirteen flags. */
export const REPORTED_PROBLEMS = [
  "unconscious",
  "notBreathing",
  "bleeding",
  "chestPain",
  "fire",
  "violence",
  "trafficAccident",
  "drowning",
  "fall",
  "poisoning",
  "childbirth",
  "intruder",
  "trapped",
] as const;
export const ZReportedProblems = z.strictObject(
  Object.fromEntries(REPORTED_PROBLEMS.map((p) => [p, z.boolean()])) as Record<
    (typeof REPORTED_PROBLEMS)[number],
    z.ZodBoolean
  >,
);

const ZReported = z.strictObject({ reported: z.boolean() });

export const ZMedicData = z.strictObject({
  person: z.strictObject({
    sex: z.enum(["Female", "Male", "Other"]).nullable(),
    height: z.number().positive().nullable().describe("centimetres"),
    weight: z.number().positive().nullable().describe("kilograms"),
    yearOfBirth: z.number().int().min(1900).max(2100).nullable().describe("the birth year, not an age"),
  }),
  conditions: z.strictObject({
    diabetes: ZReported,
    epilepsy: ZReported,
    heart: ZReported,
    lungs: ZReported,
    psychiatric: ZReported,
    description: ZText.nullable(),
    pregnancy: z.strictObject({ reported: z.boolean(), description: ZText.nullable() }),
  }),
  assistance: z.strictObject({
    hearing: ZReported,
    vision: ZReported,
    speech: ZReported,
    description: ZText.nullable(),
  }),
  notes: z.strictObject({ caller: ZText.nullable() }),
  medications: ZText.nullable(),
  allergies: ZText.nullable(),
  organDonation: z.strictObject({ status: z.enum(["Donor", "NotDonor", "Unknown"]), description: ZText.nullable() }),
  advanceDirectives: ZText.nullable(),
});
export type TMedicData = z.infer<typeof ZMedicData>;

export const ZChat = z.strictObject({
  state: z.literal("Active"),
  activatedAtUtc: ZUtcTimestamp,
  portalUrl: z.string(),
});
export const ZLiveVideo = z.strictObject({
  state: z.enum(["Active", "Ended"]),
  activatedAtUtc: ZUtcTimestamp,
  endedAtUtc: ZUtcTimestamp.nullable(),
  portalUrl: z.string(),
});

export const ZCaller = z.strictObject({
  dataSources: ZDataSources,
  deviceInfo: ZDeviceInfo.nullable(),
  fullName: ZText.nullable(),
  phoneNumber: ZText.nullable(),
  email: ZText.nullable(),
  insuranceNumber: ZText.nullable(),
  languages: z.array(z.string()).describe("BCP 47 language tags"),
  permanentResidence: z.strictObject({ address: ZText.nullable(), coordinates: ZGeoPoint.nullable() }).nullable(),
  contacts: z.array(z.strictObject({ name: ZText, phoneNumber: ZText.nullable(), relation: ZText.nullable() })),
  reportedProblems: ZReportedProblems,
  medicData: ZMedicData.nullable(),
  chat: ZChat.nullable(),
  liveVideo: ZLiveVideo.nullable(),
  tracks: z.array(ZTrack),
});
export type TCaller = z.infer<typeof ZCaller>;

export const COLLABORATION_STATES = ["Owner", "Pending", "Accepted", "Declined"] as const;
export const ZCollaboration = z.enum(COLLABORATION_STATES);

export const ZInvolvedAgency = z.strictObject({
  id: z.uuid(),
  displayName: z.string(),
  collaboration: ZCollaboration,
  invitedBy: z.strictObject({ id: z.uuid(), displayName: z.string() }).nullable(),
});
export type TInvolvedAgency = z.infer<typeof ZInvolvedAgency>;

export const ZPurpose = z.enum(["Real", "Test", "Demo"]);

export const ZIncidentSnapshotV3 = z.strictObject({
  id: z.uuid(),
  purpose: ZPurpose,
  openUrl: z.string(),
  createdAtUtc: ZUtcTimestamp,
  caller: ZCaller,
  involvedAgencies: z.array(ZInvolvedAgency),
  label: ZText.nullable(),
  summary: ZText.nullable(),
  callSign: ZText.nullable(),
  patient: z.strictObject({ description: ZText.nullable() }),
});
export type TIncidentSnapshotV3 = z.infer<typeof ZIncidentSnapshotV3>;

/** A caller with nothing known yet except (maybe) a phone number: every member present. */
export function emptyCaller(phoneNumber: string | null): TCaller {
  return {
    dataSources: { mobileApp: null, webApp: null, appleEed: null, googleEls: null },
    deviceInfo: null,
    fullName: null,
    phoneNumber,
    email: null,
    insuranceNumber: null,
    languages: [],
    permanentResidence: null,
    contacts: [],
    reportedProblems: Object.fromEntries(REPORTED_PROBLEMS.map((p) => [p, false])) as TCaller["reportedProblems"],
    medicData: null,
    chat: null,
    liveVideo: null,
    tracks: [],
  };
}
