// The v3 receiver event routes (platform-interface.md, "Webhook receiver
// routes"), one entry per route: its method, path below the incident, the
// capability flag that asks for it, and the operation name the generic
// `changed` event carries in `event` (workbench-decisions.md: e.g.
// "PATCH caller/full-name").
import type { V3Flag } from "./capabilities.schema.ts";

export type V3Route = { method: "POST" | "PUT" | "PATCH"; sub: string; flag: V3Flag; operation: string };

export const V3_ROUTES = {
  created: { method: "POST", sub: "", flag: "incident.created", operation: "POST incidents" },
  closed: { method: "POST", sub: "closed", flag: "incident.closed", operation: "POST closed" },
  changed: { method: "POST", sub: "changed", flag: "incident.changed", operation: "POST changed" },
  caller: { method: "PUT", sub: "caller", flag: "caller.changed", operation: "PUT caller" },
  trackAppended: { method: "POST", sub: "caller/track", flag: "caller.newLocation", operation: "POST caller/track" },
  trackReplaced: { method: "PUT", sub: "caller/track", flag: "caller.trackReplaced", operation: "PUT caller/track" },
  fullName: {
    method: "PATCH",
    sub: "caller/full-name",
    flag: "caller.fullNameChanged",
    operation: "PATCH caller/full-name",
  },
  phoneNumber: {
    method: "PATCH",
    sub: "caller/phone-number",
    flag: "caller.phoneNumberChanged",
    operation: "PATCH caller/phone-number",
  },
  deviceInfo: {
    method: "PATCH",
    sub: "caller/device-info",
    flag: "caller.deviceInfoChanged",
    operation: "PATCH caller/device-info",
  },
  chatActivated: {
    method: "POST",
    sub: "caller/chat/activated",
    flag: "caller.chat.activated",
    operation: "POST caller/chat/activated",
  },
  liveVideoActivated: {
    method: "POST",
    sub: "caller/live-video/activated",
    flag: "caller.liveVideo.activated",
    operation: "POST caller/live-video/activated",
  },
  liveVideoEnded: {
    method: "POST",
    sub: "caller/live-video/ended",
    flag: "caller.liveVideo.ended",
    operation: "POST caller/live-video/ended",
  },
  involvedAgency: {
    method: "POST",
    sub: "involved-agency",
    flag: "involvedAgency.invited",
    operation: "POST involved-agency",
  },
  collaboration: {
    method: "PATCH",
    sub: "involved-agency/{agencyId}/collaboration",
    flag: "involvedAgency.collaboration.changed",
    operation: "PATCH involved-agency/{agencyId}/collaboration",
  },
  label: { method: "PATCH", sub: "label", flag: "labelChanged", operation: "PATCH label" },
  summary: { method: "PATCH", sub: "summary", flag: "summaryChanged", operation: "PATCH summary" },
  callSign: { method: "PATCH", sub: "call-sign", flag: "callSignChanged", operation: "PATCH call-sign" },
  patientDescription: {
    method: "PATCH",
    sub: "patient/description",
    flag: "patient.descriptionChanged",
    operation: "PATCH patient/description",
  },
} as const satisfies Record<string, V3Route>;

export type V3RouteKey = keyof typeof V3_ROUTES;

/**
 * Event kind names (platform-interface.md, "Events"): the spec names two —
 * IncidentLabelChanged (carries null for a cleared label) and
 * IncidentLiveVideoEndedV3 (no body); the other routes are named by their key.
 * The outbox, the inspector and the AsyncAPI document use these names.
 */
export const V3_EVENT_NAMES: Partial<Record<V3RouteKey, string>> = {
  label: "IncidentLabelChanged",
  liveVideoEnded: "IncidentLiveVideoEndedV3",
};

export const v3EventName = (key: V3RouteKey): string => V3_EVENT_NAMES[key] ?? key;

/** The route an outbox event name stands for (the inverse of v3EventName). */
export function v3RouteOfEventName(name: string): V3RouteKey | undefined {
  const named = (Object.entries(V3_EVENT_NAMES) as Array<[V3RouteKey, string]>).find(([, n]) => n === name);
  if (named) return named[0];
  return name in V3_ROUTES ? (name as V3RouteKey) : undefined;
}

/** The path below {receiver_url} of a route for one incident. */
export function routePath(key: V3RouteKey, incidentId: string, agencyId?: string): string {
  const { sub } = V3_ROUTES[key];
  if (!sub) return "/v3/incidents";
  return `/v3/incidents/${incidentId}/${sub.replace("{agencyId}", agencyId ?? "")}`;
}
