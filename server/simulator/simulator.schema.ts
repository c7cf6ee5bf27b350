// The simulator's inputs: one zod schema per caller-side action. They feed the
// tRPC router, the CLI and the Simulator page's forms (one schema, many uses).
// Text is never blank: the snapshot's own text schemas refuse an empty or
// whitespace-only string here as the inbound API does (ValidationFailed there).
import { z } from "zod";
import { INTERNET_CONNECTION_TYPES, REPORTED_PROBLEMS, textInput, ZMedicData } from "../incidents/snapshot.schema.ts";

/** Where a simulated incident comes from. "ConnectorAdmin" is the connector administration screen's Test incident. */
export const INCIDENT_ORIGINS = ["MobileApp", "WebApp", "Aml", "GoogleEls", "ConnectorAdmin", "Demo"] as const;
export const MEASURED_SOURCES = ["MobileApp", "WebApp", "Aml", "GoogleEls", "MobileAppSms"] as const;

const ZLatitude = z.number().min(-90).max(90);
const ZLongitude = z.number().min(-180).max(180);

export const ZFix = z.object({
  latitude: ZLatitude,
  longitude: ZLongitude,
  accuracy: z.number().nonnegative().max(100_000).describe("metres"),
  altitude: z.number().min(-500).max(10_000).nullable().optional(),
  altitudeAccuracy: z.number().nonnegative().nullable().optional(),
  /** Seconds before now (workbench clock) the device captured the fix; receive time is now. */
  capturedSecondsAgo: z.number().int().min(0).max(3600).optional(),
});
export type TFix = z.infer<typeof ZFix>;

export const ZRaiseIncidentInput = z.object({
  origin: z.enum(INCIDENT_ORIGINS),
  /** The caller's first fix; its source is the origin (ConnectorAdmin/Demo: none unless given, then MobileApp). */
  location: ZFix.optional(),
  /** Owner agency; absent = jurisdiction of the location, else North PSAP. */
  agencyId: z.uuid().optional(),
  phoneNumber: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, "E.164, e.g. +4795000001")
    .nullable()
    .optional(),
  label: textInput(200).nullable().optional(),
});
export type TRaiseIncidentInput = z.infer<typeof ZRaiseIncidentInput>;

export const ZSimulatorAction = z.discriminatedUnion("action", [
  z.object({ action: z.literal("location"), source: z.enum(MEASURED_SOURCES), fix: ZFix }),
  /** The coarse fixes of `source` discarded for one precise fix (trackReplaced). */
  z.object({ action: z.literal("replaceTrack"), source: z.enum(MEASURED_SOURCES), fix: ZFix }),
  z.object({ action: z.literal("linkDataSource"), source: z.enum(["mobileApp", "webApp", "googleEls", "appleEed"]) }),
  z.object({
    action: z.literal("deviceInfo"),
    batteryLevel: z.number().int().min(0).max(100).nullable(),
    internetConnectionType: z.enum(INTERNET_CONNECTION_TYPES).nullable(),
    operatingSystem: textInput(50).nullable().optional(),
  }),
  z.object({ action: z.literal("fullName"), fullName: textInput(200).nullable() }),
  z.object({
    action: z.literal("phoneNumber"),
    phoneNumber: z.string().regex(/^\+[1-9]\d{6,14}$/, "E.164, e.g. +4795000001"),
  }),
  /** The caller reports problems (caller.reportedProblems): the named flags become true, the others stay. */
  z.object({
    action: z.literal("reportProblems"),
    problems: z.array(z.enum(REPORTED_PROBLEMS)).min(1).max(REPORTED_PROBLEMS.length),
  }),
  /** Medical data: the given record, or a sample when absent. */
  z.object({ action: z.literal("medicData"), medicData: ZMedicData.nullable().optional() }),
  /** A temporary-information warning, merged into medicData.notes.caller until it expires (workbench clock). */
  z.object({
    action: z.literal("temporaryInformation"),
    warning: textInput(500),
    validForMinutes: z.number().int().min(1).max(1440),
  }),
  z.object({ action: z.literal("activateChat") }),
  z.object({ action: z.literal("chatMessage"), text: textInput(2000) }),
  z.object({ action: z.literal("activateLiveVideo") }),
  z.object({ action: z.literal("endLiveVideo") }),
  /** The caller opens the newest location SMS link and shares a fix (→ MobileAppSms). */
  z.object({ action: z.literal("openLocationSms"), fix: ZFix }),
  z.object({ action: z.literal("close") }),
]);
export type TSimulatorAction = z.infer<typeof ZSimulatorAction>;
export type SimulatorActionName = TSimulatorAction["action"];

export const ZPerformActionInput = z.object({ incidentId: z.uuid(), action: ZSimulatorAction });
