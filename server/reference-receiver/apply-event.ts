// The replica: the receiver's own copy of an incident, built only from what it
// was delivered. applyEvent is pure: (replica, delivery) -> (replica, anomalies);
// applyEventInPlace does the same to a replica its caller owns.
// Anomalies are what an integrator's receiver must notice rather than silently
// absorb (spec, Endpoints rules 5-6, Delivery rules 4-5).
import type { TIncidentSnapshotV3, TLocation, TTrack } from "../incidents/snapshot.schema.ts";
import { flagPathOf, type V3Flag } from "../webhook-contracts/v3/capability-flags.ts";
import { checkBody } from "./check-body.ts";
import { eventRouteOfFlag } from "./event-routes.ts";

export type Replica = {
  snapshot: TIncidentSnapshotV3;
  /** Sources whose whole track was received (create, PUT caller, PUT caller/track). */
  fullSources: string[];
  closedAtUtc: string | null;
};

export type Delivery = {
  /** The route's flag (webhook-contracts/v3/routes.ts). */
  flag: V3Flag;
  params: { incidentId?: string; agencyId?: string };
  body: unknown;
  /** Service-Request-Timestamp: the only time a body-less event (live video ended) carries. */
  requestTimestamp: string | null;
};

export type Applied = { replica: Replica | null; anomalies: string[] };

/** Pure: the replica and the delivery given are left as they were; an event that changes the replica returns a new one. */
export function applyEvent(replica: Replica | null, delivery: Delivery): Applied {
  const { changed: _, ...applied } = apply(replica, delivery, structuredClone);
  return applied;
}

/**
 * For a caller that owns the replica and the delivery's body (processing, which parsed both from
 * their rows): an event that changes the replica changes it in place, and a create's incident
 * becomes the replica, saving a copy of the whole replica per record (a create's copy was 15 % of
 * the embedded receiver's longest tasks under a burst of creates).
 */
export function applyEventInPlace(replica: Replica | null, delivery: Delivery): Applied & { changed: boolean } {
  return apply(replica, delivery, (value) => value);
}

/** `own` makes what the event changes the replica's own: a copy (pure), or the value itself (in place). */
function apply(replica: Replica | null, delivery: Delivery, own: <T>(value: T) => T): Applied & { changed: boolean } {
  const route = eventRouteOfFlag(delivery.flag);
  // PUT caller carries "the whole composed caller" as the body itself; a {caller: …} wrapper fails the check.
  const body = delivery.body;
  if (route.body) {
    const checked = checkBody(route.body, body);
    // unprocessable: recorded and flagged, never applied
    if (!checked.ok) return { replica, anomalies: checked.anomalies, changed: false };
  }
  if (delivery.flag === "incident.created")
    return { ...create(own((body as { incident: TIncidentSnapshotV3 }).incident)), changed: true };
  if (!replica) return { replica, anomalies: ["unknown-incident"], changed: false };
  // States and transitions rule 3: a closed incident accepts no further change.
  if (replica.closedAtUtc) return { replica, anomalies: [`after-close:${flagPathOf(delivery.flag)}`], changed: false };
  return { ...update(own(replica), delivery, body), changed: true };
}

function create(snapshot: TIncidentSnapshotV3): Applied {
  // Endpoints rule 6: a create may be repeated (a newly involved agency); applying it again changes nothing.
  return {
    replica: { snapshot, fullSources: snapshot.caller.tracks.map((t) => t.source), closedAtUtc: null },
    anomalies: [],
  };
}

function update(replica: Replica, delivery: Delivery, body: unknown): Applied {
  const s = replica.snapshot;
  const b = body as Record<string, unknown>;
  const anomalies: string[] = [];
  switch (delivery.flag) {
    // A create is applied by create() above, never as an update.
    case "incident.created":
      break;
    case "incident.closed":
      replica.closedAtUtc = b.closedAtUtc as string;
      break;
    // The generic event carries no incident data: the replica cannot follow it (work in the portal via openUrl).
    case "incident.changed":
      break;
    case "caller.changed":
      s.caller = body as TIncidentSnapshotV3["caller"];
      replica.fullSources = [...new Set([...replica.fullSources, ...s.caller.tracks.map((t) => t.source)])];
      break;
    case "caller.newLocation": {
      const location = b.location as TLocation;
      // Endpoints rule 5: an append arrives only for a track already received in full; otherwise it is a hole.
      if (!replica.fullSources.includes(location.source)) anomalies.push(`hole:${location.source}`);
      const entry = s.caller.tracks.find((t) => t.source === location.source);
      if (entry) entry.track.push(location);
      else s.caller.tracks.push({ source: location.source, track: [location] });
      break;
    }
    case "caller.trackReplaced": {
      const track = body as TTrack;
      const i = s.caller.tracks.findIndex((t) => t.source === track.source);
      if (i >= 0) s.caller.tracks[i] = track;
      else s.caller.tracks.push(track);
      if (!replica.fullSources.includes(track.source)) replica.fullSources.push(track.source);
      break;
    }
    case "caller.fullNameChanged":
      s.caller.fullName = b.fullName as string | null;
      break;
    case "caller.phoneNumberChanged":
      s.caller.phoneNumber = b.phoneNumber as string | null;
      break;
    case "caller.deviceInfoChanged":
      s.caller.deviceInfo = b.deviceInfo as TIncidentSnapshotV3["caller"]["deviceInfo"];
      break;
    case "caller.chat.activated":
      s.caller.chat = b.chat as TIncidentSnapshotV3["caller"]["chat"];
      break;
    case "caller.liveVideo.activated":
      s.caller.liveVideo = b.liveVideo as TIncidentSnapshotV3["caller"]["liveVideo"];
      break;
    case "caller.liveVideo.ended":
      if (!s.caller.liveVideo) anomalies.push("live-video-not-active");
      else
        s.caller.liveVideo = {
          ...s.caller.liveVideo,
          state: "Ended",
          endedAtUtc: delivery.requestTimestamp ?? s.caller.liveVideo.endedAtUtc,
        };
      break;
    case "involvedAgency.invited": {
      const agency = b.agency as TIncidentSnapshotV3["involvedAgencies"][number];
      const i = s.involvedAgencies.findIndex((a) => a.id === agency.id);
      if (i >= 0) s.involvedAgencies[i] = agency;
      else s.involvedAgencies.push(agency);
      break;
    }
    case "involvedAgency.collaboration.changed": {
      const agency = s.involvedAgencies.find((a) => a.id === delivery.params.agencyId);
      if (!agency) anomalies.push(`unknown-agency:${delivery.params.agencyId}`);
      else agency.collaboration = b.collaboration as typeof agency.collaboration;
      break;
    }
    case "labelChanged":
      s.label = b.label as string | null;
      break;
    case "summaryChanged":
      s.summary = b.summary as string | null;
      break;
    case "callSignChanged":
      s.callSign = b.callSign as string | null;
      break;
    case "patient.descriptionChanged":
      s.patient.description = b.description as string | null;
      break;
  }
  return { replica, anomalies };
}
