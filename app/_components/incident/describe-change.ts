// How a change record reads in a timeline: a title a dispatcher understands and
// a status colour. Pure, so it is unit-tested.
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

export function describeChange(
  change: ChangeRecord,
  agencyName: (id: string) => string = (id) => id,
): { title: string; status: TimelineStatus } {
  const p = (change.payload ?? {}) as Payload;
  switch (change.kind) {
    case "incident.created":
      return { title: "Incident created", status: "info" };
    case "incident.closed":
      return { title: "Incident closed", status: "neutral" };
    case "caller.locationAdded": {
      const acc =
        p.location?.type === "Measured" && typeof p.location.accuracy === "number"
          ? ` ±${Math.round(p.location.accuracy)} m`
          : "";
      return { title: `New ${sourceName(p.source) ?? ""} location${acc}`.replace("  ", " "), status: "info" };
    }
    case "caller.trackReplaced":
      return { title: `${sourceName(p.source) ?? "A"} track replaced`, status: "info" };
    case "caller.changed":
      return {
        title: p.what ? (CALLER_CHANGED[p.what] ?? `Caller data changed: ${p.what}`) : "Caller data changed",
        status: p.what === "reportedProblems" ? "warning" : "neutral",
      };
    case "caller.fullNameChanged":
      return { title: "Caller's name changed", status: "neutral" };
    case "caller.phoneNumberChanged":
      return { title: "Caller's phone number available", status: "neutral" };
    case "caller.deviceInfoChanged":
      return { title: "Device info changed", status: "neutral" };
    case "caller.chatActivated":
      return { title: "Chat activated", status: "success" };
    case "caller.liveVideoActivated":
      return { title: "Live video started", status: "success" };
    case "caller.liveVideoEnded":
      return { title: "Live video ended", status: "neutral" };
    case "involvedAgency.invited":
      return { title: `${agencyName(p.agencyId ?? "")} invited`, status: "warning" };
    case "involvedAgency.collaborationChanged":
      return { title: `${agencyName(p.agencyId ?? "")}: collaboration changed`, status: "warning" };
    case "labelChanged":
      return { title: "Label changed", status: "neutral" };
    case "summaryChanged":
      return { title: "Summary changed", status: "neutral" };
    case "callSignChanged":
      return { title: "Call sign changed", status: "neutral" };
    case "patient.descriptionChanged":
      return { title: "Patient description changed", status: "neutral" };
    default:
      return { title: change.kind, status: "neutral" };
  }
}
