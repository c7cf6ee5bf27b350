// The v3 receiver event routes (platform-interface.md, "Webhook receiver
// routes", v3 event routes table): the one table the planner, the renderers,
// the AsyncAPI document, the reference receiver's routing and body checks and
// the conformance kit read. One entry per route: its method, path below the
// incident, the capability flag that asks for it (capability-flags.ts), the
// change kind it expresses (the spec's "Which change produces which operation";
// the generic `changed` stands in for any of them), the event name where the
// spec gives one, and its body (workbench-decisions.md, "Webhook v3 bodies the
// spec does not show"). Adding a route is one entry here, its renderer
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
import type { V3Flag } from "./capability-flags.ts";

type ChangeKind = IncidentChangeKind["kind"];

export type V3Route = {
  method: "POST" | "PUT" | "PATCH";
  /** The path below /v3/incidents/{incidentId}; "" for the create (POST /v3/incidents). */
  sub: string;
  flag: V3Flag;
  /** The change kind this route carries; none for the generic `changed`. */
  change?: ChangeKind;
  /** The event kind name, where the spec names one (else the route's key). */
  event?: string;
  /** The body; null for a route without one (live video ended: nothing to check). */
  body: z.ZodType | null;
};

/** Spec: "a cleared nullable text value is delivered as null and a blank string is never sent". */
const ZNullableText = z.string().regex(/\S/, "a blank string is never sent").nullable();

// PUT caller carries "whole composed caller" with no wrapper (the route table shows a wrapper
// wherever there is one): the snapshot's caller object itself, tracks included.
export const V3_ROUTES = {
  created: {
    method: "POST",
    sub: "",
    flag: "incident.created",
    change: "incident.created",
    body: z.strictObject({ incident: ZIncidentSnapshotV3 }),
  },
  closed: {
    method: "POST",
    sub: "closed",
    flag: "incident.closed",
    change: "incident.closed",
    body: z.strictObject({ closedAtUtc: ZUtcTimestamp }),
  },
  changed: {
    method: "POST",
    sub: "changed",
    flag: "incident.changed",
    body: z.strictObject({
      event: z
        .string()
        .min(1)
        .describe("the specific operation that would have carried the change, e.g. PATCH caller/full-name"),
      openUrl: z.string(),
    }),
  },
  caller: {
    method: "PUT",
    sub: "caller",
    flag: "caller.changed",
    change: "caller.changed",
    body: ZCaller.describe("the snapshot's caller object itself, not wrapped"),
  },
  trackAppended: {
    method: "POST",
    sub: "caller/track",
    flag: "caller.newLocation",
    change: "caller.locationAdded",
    body: z.strictObject({ location: ZLocation }),
  },
  trackReplaced: {
    method: "PUT",
    sub: "caller/track",
    flag: "caller.trackReplaced",
    change: "caller.trackReplaced",
    body: z.strictObject({ source: ZLocationSource, track: ZTrack.shape.track }),
  },
  fullName: {
    method: "PATCH",
    sub: "caller/full-name",
    flag: "caller.fullNameChanged",
    change: "caller.fullNameChanged",
    body: z.strictObject({ fullName: ZNullableText }),
  },
  phoneNumber: {
    method: "PATCH",
    sub: "caller/phone-number",
    flag: "caller.phoneNumberChanged",
    change: "caller.phoneNumberChanged",
    body: z.strictObject({ phoneNumber: ZNullableText }),
  },
  deviceInfo: {
    method: "PATCH",
    sub: "caller/device-info",
    flag: "caller.deviceInfoChanged",
    change: "caller.deviceInfoChanged",
    body: z.strictObject({ deviceInfo: ZDeviceInfo.nullable() }),
  },
  chatActivated: {
    method: "POST",
    sub: "caller/chat/activated",
    flag: "caller.chat.activated",
    change: "caller.chatActivated",
    body: z.strictObject({ chat: ZChat }),
  },
  liveVideoActivated: {
    method: "POST",
    sub: "caller/live-video/activated",
    flag: "caller.liveVideo.activated",
    change: "caller.liveVideoActivated",
    body: z.strictObject({ liveVideo: ZLiveVideo }),
  },
  liveVideoEnded: {
    method: "POST",
    sub: "caller/live-video/ended",
    flag: "caller.liveVideo.ended",
    change: "caller.liveVideoEnded",
    event: "IncidentLiveVideoEndedV3",
    body: null,
  },
  involvedAgency: {
    method: "POST",
    sub: "involved-agency",
    flag: "involvedAgency.invited",
    change: "involvedAgency.invited",
    body: z.strictObject({ agency: ZInvolvedAgency }),
  },
  collaboration: {
    method: "PATCH",
    sub: "involved-agency/{agencyId}/collaboration",
    flag: "involvedAgency.collaboration.changed",
    change: "involvedAgency.collaborationChanged",
    body: z.strictObject({ collaboration: ZCollaboration }),
  },
  // The spec's IncidentLabelChanged carries null for a cleared label.
  label: {
    method: "PATCH",
    sub: "label",
    flag: "labelChanged",
    change: "labelChanged",
    event: "IncidentLabelChanged",
    body: z.strictObject({ label: ZNullableText }),
  },
  summary: {
    method: "PATCH",
    sub: "summary",
    flag: "summaryChanged",
    change: "summaryChanged",
    body: z.strictObject({ summary: ZNullableText }),
  },
  callSign: {
    method: "PATCH",
    sub: "call-sign",
    flag: "callSignChanged",
    change: "callSignChanged",
    body: z.strictObject({ callSign: ZNullableText }),
  },
  patientDescription: {
    method: "PATCH",
    sub: "patient/description",
    flag: "patient.descriptionChanged",
    change: "patient.descriptionChanged",
    body: z.strictObject({ description: ZNullableText }),
  },
} as const satisfies Record<string, V3Route>;

export type V3RouteKey = keyof typeof V3_ROUTES;
export const V3_ROUTE_KEYS = Object.keys(V3_ROUTES) as V3RouteKey[];

// Every change kind is carried by exactly one route: a kind no route names fails to compile here.
type RouteChange<K extends V3RouteKey> = K extends V3RouteKey
  ? (typeof V3_ROUTES)[K] extends { change: infer C }
    ? C
    : never
  : never;
const everyChangeRouted: [Exclude<ChangeKind, RouteChange<V3RouteKey>>] extends [never] ? true : never = true;
void everyChangeRouted;

const ROUTE_OF_CHANGE = new Map<ChangeKind, V3RouteKey>(
  V3_ROUTE_KEYS.flatMap((key) => {
    const { change } = V3_ROUTES[key] as V3Route;
    return change ? [[change, key] as const] : [];
  }),
);

/** The route that carries a change kind. */
export const routeOfChange = (kind: ChangeKind): V3RouteKey => ROUTE_OF_CHANGE.get(kind)!;

/** The body of a route as a schema; "no body" (JSON null) for a route without one. */
const NO_BODY = z.null().describe("no body");
export const V3_EVENT_BODIES = Object.fromEntries(
  V3_ROUTE_KEYS.map((key) => [key, (V3_ROUTES[key] as V3Route).body ?? NO_BODY]),
) as { [K in V3RouteKey]: (typeof V3_ROUTES)[K]["body"] extends null ? typeof NO_BODY : (typeof V3_ROUTES)[K]["body"] };

/**
 * The operation name the generic `changed` event carries in `event` (workbench-decisions.md:
 * e.g. "PATCH caller/full-name"): the method and the path below the incident, "POST incidents" for the create.
 */
export function operationOf(key: V3RouteKey): string {
  const { method, sub } = V3_ROUTES[key];
  return `${method} ${sub || "incidents"}`;
}

/**
 * Event kind names (platform-interface.md, "Events"): the spec names two —
 * IncidentLabelChanged and IncidentLiveVideoEndedV3; the other routes are named by their key.
 * The outbox, the inspector and the AsyncAPI document use these names.
 */
export const v3EventName = (key: V3RouteKey): string => (V3_ROUTES[key] as V3Route).event ?? key;

/** The route an outbox event name stands for (the inverse of v3EventName). */
export function v3RouteOfEventName(name: string): V3RouteKey | undefined {
  const named = V3_ROUTE_KEYS.find((key) => (V3_ROUTES[key] as V3Route).event === name);
  if (named) return named;
  return name in V3_ROUTES ? (name as V3RouteKey) : undefined;
}

/** The path template below {receiver_url}: /v3/incidents, /v3/incidents/{incidentId}/label, … */
export function v3PathTemplate(key: V3RouteKey): string {
  const { sub } = V3_ROUTES[key];
  return sub ? `/v3/incidents/{incidentId}/${sub}` : "/v3/incidents";
}

/** The path below {receiver_url} of a route for one incident. */
export function routePath(key: V3RouteKey, incidentId: string, agencyId?: string): string {
  const { sub } = V3_ROUTES[key];
  if (!sub) return "/v3/incidents";
  return `/v3/incidents/${incidentId}/${sub.replace("{agencyId}", agencyId ?? "")}`;
}
