// How a change record reads in a timeline: a title a dispatcher understands and
// a status colour. Pure, so it is unit-tested.
import type { IncidentChangeKind } from "@/server/incidents/change-record";
import type { TLocationSource } from "@/server/incidents/snapshot.schema";
import { SOURCE_LABELS } from "../map/select-tracks";
import type { TimelineStatus } from "../timeline/timeline";

/** What a caller.changed record changed, in words (its `what` is the member's path). */
const CALLER_CHANGED: Record<string, string> = {
  medicData: "Medical data shared",
  reportedProblems: "Problems reported",
  "dataSources.mobileApp": "Mobile app linked",
  "dataSources.webApp": "Web app linked",
  "dataSources.appleEed": "Apple EED linked",
  "dataSources.googleEls": "Google ELS linked",
};

const sourceName = (source: string | undefined) =>
  source ? (SOURCE_LABELS[source as TLocationSource] ?? source) : undefined;

export type ChangeRecord = { seq: number; kind: string; payload: unknown; producedAtUtc: string; actor: string };

type Payload = { source?: string; what?: string; agencyId?: string; location?: { accuracy?: number; type?: string } };
type Described = { title: string; status: TimelineStatus };
type ChangeKind = IncidentChangeKind["kind"];

/**
 * A label for every change kind: a kind without one fails to compile here (the mapped type names
 * them all), so a new kind never reads as its raw name by accident.
 */
const DESCRIBE: { [K in ChangeKind]: (p: Payload, agencyName: (id: string) => string) => Described } = {
  "incident.created": () => ({ title: "Incident created", status: "info" }),
  "incident.closed": () => ({ title: "Incident closed", status: "neutral" }),
  "caller.newLocation": (p) => {
    const acc =
      p.location?.type === "Measured" && typeof p.location.accuracy === "number"
        ? ` ±${Math.round(p.location.accuracy)} m`
        : "";
    return { title: `New ${sourceName(p.source) ?? ""} location${acc}`.replace("  ", " "), status: "info" };
  },
  "caller.trackReplaced": (p) => ({ title: `${sourceName(p.source) ?? "A"} track replaced`, status: "info" }),
  "caller.changed": (p) => ({
    title: p.what ? (CALLER_CHANGED[p.what] ?? `Caller data changed: ${p.what}`) : "Caller data changed",
    status: p.what === "reportedProblems" ? "warning" : "neutral",
  }),
  "caller.fullNameChanged": () => ({ title: "Caller's name changed", status: "neutral" }),
  "caller.phoneNumberChanged": () => ({ title: "Caller's phone number available", status: "neutral" }),
  "caller.deviceInfoChanged": () => ({ title: "Device info changed", status: "neutral" }),
  "caller.chat.activated": () => ({ title: "Chat activated", status: "success" }),
  "caller.liveVideo.activated": () => ({ title: "Live video started", status: "success" }),
  "caller.liveVideo.ended": () => ({ title: "Live video ended", status: "neutral" }),
  "involvedAgency.invited": (p, agencyName) => ({
    title: `${agencyName(p.agencyId ?? "")} invited`,
    status: "warning",
  }),
  "involvedAgency.collaboration.changed": (p, agencyName) => ({
    title: `${agencyName(p.agencyId ?? "")}: collaboration changed`,
    status: "warning",
  }),
  labelChanged: () => ({ title: "Label changed", status: "neutral" }),
  summaryChanged: () => ({ title: "Summary changed", status: "neutral" }),
  callSignChanged: () => ({ title: "Call sign changed", status: "neutral" }),
  "patient.descriptionChanged": () => ({ title: "Patient description changed", status: "neutral" }),
};

const isChangeKind = (kind: string): kind is ChangeKind => Object.hasOwn(DESCRIBE, kind);

export function describeChange(change: ChangeRecord, agencyName: (id: string) => string = (id) => id): Described {
  // A stored kind this build does not know (a record written by another version) reads as itself.
  if (!isChangeKind(change.kind)) return { title: change.kind, status: "neutral" };
  return DESCRIBE[change.kind](change.payload ?? {}, agencyName);
}
