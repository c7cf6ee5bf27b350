// Renders the body of one v3 event from the snapshot after the change. Pure:
// the planner calls it while planning, so what is stored in the outbox is
// exactly what is sent (and what the tests validate against the schemas).
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "../../incidents/snapshot.schema.ts";
import type { V3Flag } from "./capability-flags.ts";
import { operationOf } from "./routes.ts";

export type RenderInput = {
  snapshot: TIncidentSnapshotV3;
  /** caller.newLocation: the location appended. */
  location?: TLocation;
  /** caller.trackReplaced: which source's track. */
  source?: TLocationSource;
  /** involvedAgency.invited / involvedAgency.collaboration.changed: which agency. */
  agencyId?: string;
  /** incident.closed: when. */
  closedAtUtc?: string;
  /** incident.changed: the route the generic event stands for. */
  standsFor?: V3Flag;
};

const text = (v: string | null) => (v === null || v.trim() === "" ? null : v);

export function renderEventBody(flag: V3Flag, input: RenderInput): unknown {
  const s = input.snapshot;
  const agency = () => {
    const a = s.involvedAgencies.find((x) => x.id === input.agencyId);
    if (!a) throw new Error(`agency ${input.agencyId} is not involved in incident ${s.id}`);
    return a;
  };
  switch (flag) {
    case "incident.created":
      return { incident: s };
    case "incident.closed":
      return { closedAtUtc: input.closedAtUtc };
    case "incident.changed":
      return { event: operationOf(input.standsFor ?? "incident.changed"), openUrl: s.openUrl };
    // PUT caller: the composed caller object itself, unwrapped (the route table shows no wrapper).
    case "caller.changed":
      return s.caller;
    case "caller.newLocation":
      return { location: input.location };
    case "caller.trackReplaced":
      return { source: input.source, track: s.caller.tracks.find((t) => t.source === input.source)?.track ?? [] };
    case "caller.fullNameChanged":
      return { fullName: text(s.caller.fullName) };
    case "caller.phoneNumberChanged":
      return { phoneNumber: text(s.caller.phoneNumber) };
    case "caller.deviceInfoChanged":
      return { deviceInfo: s.caller.deviceInfo };
    case "caller.chat.activated":
      return { chat: s.caller.chat };
    case "caller.liveVideo.activated":
      return { liveVideo: s.caller.liveVideo };
    case "caller.liveVideo.ended":
      return null;
    case "involvedAgency.invited":
      return { agency: agency() };
    case "involvedAgency.collaboration.changed":
      return { collaboration: agency().collaboration };
    case "labelChanged":
      return { label: text(s.label) };
    case "summaryChanged":
      return { summary: text(s.summary) };
    case "callSignChanged":
      return { callSign: text(s.callSign) };
    case "patient.descriptionChanged":
      return { description: text(s.patient.description) };
  }
}
