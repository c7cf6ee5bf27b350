// The v3 event routes of the receiver (platform-interface.md, "Webhook receiver
// routes", v3 event routes table), each with its capability flag and the body
// workbench-decisions.md fixes ("Webhook v3 bodies the spec does not show").
import { z } from "zod";
import {
  ZCaller,
  ZChat,
  ZDeviceInfo,
  ZIncidentSnapshotV3,
  ZInvolvedAgency,
  ZCollaboration,
  ZLiveVideo,
  ZLocation,
  ZTrack,
  ZUtcTimestamp,
} from "../incidents/snapshot.schema.ts";
import type { V3Flag } from "./capabilities.ts";

// Spec: "a cleared nullable text value is delivered as null and a blank string is never sent".
const text = z.string().regex(/\S/, "a blank string is never sent").nullable();

export const EVENT_ROUTES = [
  { method: "POST", path: "/v3/incidents", flag: "created", body: z.strictObject({ incident: ZIncidentSnapshotV3 }) },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/closed",
    flag: "closed",
    body: z.strictObject({ closedAtUtc: ZUtcTimestamp }),
  },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/changed",
    flag: "changed",
    body: z.strictObject({ event: z.string().min(1), openUrl: z.string() }),
  },
  // "whole composed caller": the caller object itself, never wrapped.
  { method: "PUT", path: "/v3/incidents/:incidentId/caller", flag: "caller.changed", body: ZCaller },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/caller/track",
    flag: "caller.newLocation",
    body: z.strictObject({ location: ZLocation }),
  },
  { method: "PUT", path: "/v3/incidents/:incidentId/caller/track", flag: "caller.trackReplaced", body: ZTrack },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/caller/full-name",
    flag: "caller.fullNameChanged",
    body: z.strictObject({ fullName: text }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/caller/phone-number",
    flag: "caller.phoneNumberChanged",
    body: z.strictObject({ phoneNumber: text }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/caller/device-info",
    flag: "caller.deviceInfoChanged",
    body: z.strictObject({ deviceInfo: ZDeviceInfo.nullable() }),
  },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/caller/chat/activated",
    flag: "caller.chat.activated",
    body: z.strictObject({ chat: ZChat }),
  },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/caller/live-video/activated",
    flag: "caller.liveVideo.activated",
    body: z.strictObject({ liveVideo: ZLiveVideo }),
  },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/caller/live-video/ended",
    flag: "caller.liveVideo.ended",
    body: null,
  },
  {
    method: "POST",
    path: "/v3/incidents/:incidentId/involved-agency",
    flag: "involvedAgency.invited",
    body: z.strictObject({ agency: ZInvolvedAgency }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/involved-agency/:agencyId/collaboration",
    flag: "involvedAgency.collaboration.changed",
    body: z.strictObject({ collaboration: ZCollaboration }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/label",
    flag: "labelChanged",
    body: z.strictObject({ label: text }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/summary",
    flag: "summaryChanged",
    body: z.strictObject({ summary: text }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/call-sign",
    flag: "callSignChanged",
    body: z.strictObject({ callSign: text }),
  },
  {
    method: "PATCH",
    path: "/v3/incidents/:incidentId/patient/description",
    flag: "patient.descriptionChanged",
    body: z.strictObject({ description: text }),
  },
] as const satisfies ReadonlyArray<{ method: string; path: string; flag: V3Flag; body: z.ZodType | null }>;

export type EventRoute = (typeof EVENT_ROUTES)[number];
export type MatchedRoute = { route: EventRoute; params: { incidentId?: string; agencyId?: string } };

/** Each route's path split once: every delivery is matched twice (when recorded and when applied). */
const PATTERNS = EVENT_ROUTES.map((route) => ({ route, pattern: route.path.split("/") }));

/** Finds the route for a method and a path below {receiver_url}; undefined when none. */
export function matchEventRoute(method: string, path: string): MatchedRoute | undefined {
  const parts = path.replace(/\/+$/, "").split("/");
  for (const { route, pattern } of PATTERNS) {
    if (route.method !== method) continue;
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((p, i) =>
      p.startsWith(":") ? ((params[p.slice(1)] = decodeURIComponent(parts[i]!)), parts[i] !== "") : p === parts[i],
    );
    if (matches) return { route, params };
  }
  return undefined;
}

/** The incident a delivery is about: the path's, or for a create the body's incident.id (read loosely, before validation). */
export function incidentIdOf(match: MatchedRoute, body: unknown): string | null {
  if (match.params.incidentId) return match.params.incidentId;
  const id = (body as { incident?: { id?: unknown } } | null)?.incident?.id;
  return typeof id === "string" ? id : null;
}
