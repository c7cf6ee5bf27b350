// Bodies of the v3 event routes. The spec shows create ({incident}), changed
// ({event, openUrl}), track ({location} / {source, track[]}) and live-video
// ended (no body); workbench-decisions.md fixes the rest. PUT caller carries
// "whole composed caller" with no wrapper (the route table shows a wrapper
// wherever there is one): the snapshot's caller object itself, tracks included.
import { z } from "zod";
import {
  ZCaller,
  ZChat,
  ZCollaboration,
  ZDeviceInfo,
  ZIncidentSnapshotV3,
  ZInvolvedAgency,
  ZLiveVideo,
  ZLocation,
  ZLocationSource,
  ZTrack,
  ZUtcTimestamp,
} from "../../../incidents/snapshot.schema.ts";
import type { V3RouteKey } from "./routes.ts";

/** Nullable text: a cleared value is null, a blank string is never sent. */
const ZNullableText = z.string().regex(/\S/, "never blank").nullable();

export const V3_EVENT_BODIES = {
  created: z.strictObject({ incident: ZIncidentSnapshotV3 }),
  closed: z.strictObject({ closedAtUtc: ZUtcTimestamp }),
  changed: z.strictObject({
    event: z
      .string()
      .describe("the specific operation that would have carried the change, e.g. PATCH caller/full-name"),
    openUrl: z.string(),
  }),
  caller: ZCaller.describe("the snapshot's caller object itself, not wrapped"),
  trackAppended: z.strictObject({ location: ZLocation }),
  trackReplaced: z.strictObject({ source: ZLocationSource, track: ZTrack.shape.track }),
  fullName: z.strictObject({ fullName: ZNullableText }),
  phoneNumber: z.strictObject({ phoneNumber: ZNullableText }),
  deviceInfo: z.strictObject({ deviceInfo: ZDeviceInfo.nullable() }),
  chatActivated: z.strictObject({ chat: ZChat }),
  liveVideoActivated: z.strictObject({ liveVideo: ZLiveVideo }),
  liveVideoEnded: z.null().describe("no body"),
  involvedAgency: z.strictObject({ agency: ZInvolvedAgency }),
  collaboration: z.strictObject({ collaboration: ZCollaboration }),
  label: z.strictObject({ label: ZNullableText }),
  summary: z.strictObject({ summary: ZNullableText }),
  callSign: z.strictObject({ callSign: ZNullableText }),
  patientDescription: z.strictObject({ description: ZNullableText }),
} as const satisfies Record<V3RouteKey, z.ZodType>;

export type V3EventBody<K extends V3RouteKey> = z.infer<(typeof V3_EVENT_BODIES)[K]>;
