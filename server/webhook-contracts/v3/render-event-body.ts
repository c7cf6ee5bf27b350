// Renders the body of one v3 event from the snapshot after the change. Pure:
// the planner calls it while planning, so what is stored in the outbox is
// exactly what is sent (and what the tests validate against the schemas).
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "../../incidents/snapshot.schema.ts";
import { operationOf, type V3RouteKey } from "./routes.ts";

export type RenderInput = {
  snapshot: TIncidentSnapshotV3;
  /** trackAppended: the location appended. */
  location?: TLocation;
  /** trackReplaced: which source's track. */
  source?: TLocationSource;
  /** involvedAgency / collaboration: which agency. */
  agencyId?: string;
  /** closed: when. */
  closedAtUtc?: string;
  /** changed: the route the generic event stands for. */
  standsFor?: V3RouteKey;
};

const text = (v: string | null) => (v === null || v.trim() === "" ? null : v);

export function renderEventBody(key: V3RouteKey, input: RenderInput): unknown {
  const s = input.snapshot;
  const agency = () => {
    const a = s.involvedAgencies.find((x) => x.id === input.agencyId);
    if (!a) throw new Error(`agency ${input.agencyId} is not involved in incident ${s.id}`);
    return a;
  };
  switch (key) {
    case "created":
      return { incident: s };
    case "closed":
      return { closedAtUtc: input.closedAtUtc };
    case "changed":
      return { event: operationOf(input.standsFor ?? "changed"), openUrl: s.openUrl };
    // PUT caller: the composed caller object itself, unwrapped (the route table shows no wrapper).
    case "caller":
      return s.caller;
    case "trackAppended":
      return { location: input.location };
    case "trackReplaced":
      return { source: input.source, track: s.caller.tracks.find((t) => t.source === input.source)?.track ?? [] };
    case "fullName":
      return { fullName: text(s.caller.fullName) };
    case "phoneNumber":
      return { phoneNumber: text(s.caller.phoneNumber) };
    case "deviceInfo":
      return { deviceInfo: s.caller.deviceInfo };
    case "chatActivated":
      return { chat: s.caller.chat };
    case "liveVideoActivated":
      return { liveVideo: s.caller.liveVideo };
    case "liveVideoEnded":
      return null;
    case "involvedAgency":
      return { agency: agency() };
    case "collaboration":
      return { collaboration: agency().collaboration };
    case "label":
      return { label: text(s.label) };
    case "summary":
      return { summary: text(s.summary) };
    case "callSign":
      return { callSign: text(s.callSign) };
    case "patientDescription":
      return { description: text(s.patient.description) };
  }
}
