// The v3 receiver event routes (platform-interface.md, "Webhook receiver
// routes", v3 event routes table): the one table the planner, the renderers,
// the AsyncAPI document, the reference receiver's routing and body checks and
// the conformance kit read. One entry per capability flag — an event's one
// internal name is its flag (capability-flags.ts), the spec's own name for it,
// and the incident change it carries has the same name (the spec's "Which change
// produces which operation"; the generic `incident.changed` stands in for any of
// them). Each entry: its method, path below the incident, the names the outbox,
// the inspector, the exports and the AsyncAPI document show (the workbench's, or
// the spec's where it gives one: platform-interface.md, "Events"), and its body
// (workbench-decisions.md, "Webhook v3 bodies the spec does not show"). Adding a
// route is its flag (capability-flags.ts), one entry here, its renderer
// (render-event-body.ts) and its replica step (reference-receiver/apply-event.ts).
import { z } from "zod";
import type { IncidentChangeKind } from "../../incidents/change-record.ts";
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
} from "../../incidents/snapshot.schema.ts";
import { V3_FLAGS, type V3Flag } from "./capability-flags.ts";

type ChangeKind = IncidentChangeKind["kind"];

export type V3Route = {
  method: "POST" | "PUT" | "PATCH";
  /** The path below /v3/incidents/{incidentId}; "" for the create (POST /v3/incidents). */
  sub: string;
  /**
   * The event's name in the outbox rows, the inspector, the exports and the AsyncAPI document's
   * channels, where the spec gives none: a spelling derived here, never branched on.
   */
  name: string;
  /** The event kind name, where the spec names one (it replaces `name` where names are shown). */
  event?: string;
  /** The body; null for a route without one (live video ended: nothing to check). */
  body: z.ZodType | null;
};

/** Spec: "a cleared nullable text value is delivered as null and a blank string is never sent". */
const ZNullableText = z.string().regex(/\S/, "a blank string is never sent").nullable();

// PUT caller carries "whole composed caller" with no wrapper (the route table shows a wrapper
// wherever there is one): the snapshot's caller object itself, tracks included.
export const V3_ROUTES = {
  "incident.created": {
    method: "POST",
    sub: "",
    name: "created",
    body: z.strictObject({ incident: ZIncidentSnapshotV3 }),
  },
  "incident.closed": {
    method: "POST",
    sub: "closed",
    name: "closed",
    body: z.strictObject({ closedAtUtc: ZUtcTimestamp }),
  },
  "incident.changed": {
    method: "POST",
    sub: "changed",
    name: "changed",
    body: z.strictObject({
      event: z
        .string()
        .min(1)
        .describe("the specific operation that would have carried the change, e.g. PATCH caller/full-name"),
      openUrl: z.string(),
    }),
  },
  "caller.changed": {
    method: "PUT",
    sub: "caller",
    name: "caller",
    body: ZCaller.describe("the snapshot's caller object itself, not wrapped"),
  },
  "caller.newLocation": {
    method: "POST",
    sub: "caller/track",
    name: "trackAppended",
    body: z.strictObject({ location: ZLocation }),
  },
  "caller.trackReplaced": {
    method: "PUT",
    sub: "caller/track",
    name: "trackReplaced",
    body: z.strictObject({ source: ZLocationSource, track: ZTrack.shape.track }),
  },
  "caller.fullNameChanged": {
    method: "PATCH",
    sub: "caller/full-name",
    name: "fullName",
    body: z.strictObject({ fullName: ZNullableText }),
  },
  "caller.phoneNumberChanged": {
    method: "PATCH",
    sub: "caller/phone-number",
    name: "phoneNumber",
    body: z.strictObject({ phoneNumber: ZNullableText }),
  },
  "caller.deviceInfoChanged": {
    method: "PATCH",
    sub: "caller/device-info",
    name: "deviceInfo",
    body: z.strictObject({ deviceInfo: ZDeviceInfo.nullable() }),
  },
  "caller.chat.activated": {
    method: "POST",
    sub: "caller/chat/activated",
    name: "chatActivated",
    body: z.strictObject({ chat: ZChat }),
  },
  "caller.liveVideo.activated": {
    method: "POST",
    sub: "caller/live-video/activated",
    name: "liveVideoActivated",
    body: z.strictObject({ liveVideo: ZLiveVideo }),
  },
  "caller.liveVideo.ended": {
    method: "POST",
    sub: "caller/live-video/ended",
    name: "liveVideoEnded",
    event: "IncidentLiveVideoEndedV3",
    body: null,
  },
  "involvedAgency.invited": {
    method: "POST",
    sub: "involved-agency",
    name: "involvedAgency",
    body: z.strictObject({ agency: ZInvolvedAgency }),
  },
  "involvedAgency.collaboration.changed": {
    method: "PATCH",
    sub: "involved-agency/{agencyId}/collaboration",
    name: "collaboration",
    body: z.strictObject({ collaboration: ZCollaboration }),
  },
  // The spec's IncidentLabelChanged carries null for a cleared label.
  labelChanged: {
    method: "PATCH",
    sub: "label",
    name: "label",
    event: "IncidentLabelChanged",
    body: z.strictObject({ label: ZNullableText }),
  },
  summaryChanged: {
    method: "PATCH",
    sub: "summary",
    name: "summary",
    body: z.strictObject({ summary: ZNullableText }),
  },
  callSignChanged: {
    method: "PATCH",
    sub: "call-sign",
    name: "callSign",
    body: z.strictObject({ callSign: ZNullableText }),
  },
  "patient.descriptionChanged": {
    method: "PATCH",
    sub: "patient/description",
    name: "patientDescription",
    body: z.strictObject({ description: ZNullableText }),
  },
} as const satisfies Record<V3Flag, V3Route>;

// Every change kind is the flag of the route that carries it, and every flag but the generic
// `incident.changed` is a change kind: either mismatch fails to compile here.
const everyChangeIsAFlag: [Exclude<ChangeKind, V3Flag>] extends [never] ? true : never = true;
const everyFlagIsAChange: [Exclude<V3Flag, ChangeKind | "incident.changed">] extends [never] ? true : never = true;
void [everyChangeIsAFlag, everyFlagIsAChange];

/** The body of a route as a schema; "no body" (JSON null) for a route without one. */
const NO_BODY = z.null().describe("no body");
export const V3_EVENT_BODIES = Object.fromEntries(
  V3_FLAGS.map((flag) => [flag, (V3_ROUTES[flag] as V3Route).body ?? NO_BODY]),
) as { [F in V3Flag]: (typeof V3_ROUTES)[F]["body"] extends null ? typeof NO_BODY : (typeof V3_ROUTES)[F]["body"] };

/**
 * The operation name the generic `incident.changed` event carries in `event` (workbench-decisions.md:
 * e.g. "PATCH caller/full-name"): the method and the path below the incident, "POST incidents" for the create.
 */
export function operationOf(flag: V3Flag): string {
  const { method, sub } = V3_ROUTES[flag];
  return `${method} ${sub || "incidents"}`;
}

/**
 * Event kind names (platform-interface.md, "Events"): the spec names two —
 * IncidentLabelChanged and IncidentLiveVideoEndedV3; the other routes go by the table's `name`.
 * The outbox, the inspector and the AsyncAPI document use these names.
 */
export const v3EventName = (flag: V3Flag): string => (V3_ROUTES[flag] as V3Route).event ?? V3_ROUTES[flag].name;

/** The outbox name of a generic `incident.changed` event standing for `flag`'s route. */
export const genericEventName = (standsFor: V3Flag): string => `changed (${V3_ROUTES[standsFor].name})`;

/** The flag an outbox event name stands for (the inverse of v3EventName and genericEventName). */
export function v3FlagOfEventName(name: string): { flag: V3Flag; standsFor: V3Flag | null } | undefined {
  const generic = /^changed \((\w+)\)$/.exec(name);
  const byName = (n: string) => V3_FLAGS.find((flag) => v3EventName(flag) === n || V3_ROUTES[flag].name === n);
  if (generic) {
    const standsFor = byName(generic[1]!);
    return standsFor ? { flag: "incident.changed", standsFor } : undefined;
  }
  const flag = byName(name);
  return flag ? { flag, standsFor: null } : undefined;
}

/** The path template below {receiver_url}: /v3/incidents, /v3/incidents/{incidentId}/label, … */
export function v3PathTemplate(flag: V3Flag): string {
  const { sub } = V3_ROUTES[flag];
  return sub ? `/v3/incidents/{incidentId}/${sub}` : "/v3/incidents";
}

/** The path below {receiver_url} of a route for one incident. */
export function routePath(flag: V3Flag, incidentId: string, agencyId?: string): string {
  const { sub } = V3_ROUTES[flag];
  if (!sub) return "/v3/incidents";
  return `/v3/incidents/${incidentId}/${sub.replace("{agencyId}", agencyId ?? "")}`;
}
