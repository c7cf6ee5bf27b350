// PURE planning: one incident change + one receiver's declared capabilities +
// what that receiver has already been sent (its lane) → the ordered events to
// send it, and the lane afterwards. Implements the spec's mapping table and the
// receiver-route rules 1–7 (platform-interface.md, "Webhook receiver routes").
import type { IncidentChange } from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3, TLocationSource } from "../../incidents/snapshot.schema.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { renderEventBody, type RenderInput } from "../../webhook-contracts/v3/render-event-body.ts";
import { routePath, V3_ROUTES } from "../../webhook-contracts/v3/routes.ts";

export type LaneState = {
  /** The create-and-track sequence was planned for this receiver (rule 6). */
  introduced: boolean;
  /** Sources whose whole current track the receiver was sent (appends only for these, rule 5). */
  fullTracks: TLocationSource[];
};

export type PlannedEvent = {
  /** The event's flag (its one name: webhook-contracts/v3/routes.ts). */
  route: V3Flag;
  /** For the generic `incident.changed`: the specific route it stands for. */
  standsFor: V3Flag | null;
  method: "POST" | "PUT" | "PATCH";
  path: string;
  body: unknown;
};

export type PlanInput = { change: IncidentChange; flags: ReadonlySet<V3Flag>; lane: LaneState };
export type Plan = { events: PlannedEvent[]; lane: LaneState };

export const NEW_LANE: LaneState = { introduced: false, fullTracks: [] };

function build(flag: V3Flag, input: RenderInput): PlannedEvent {
  const { method } = V3_ROUTES[flag];
  return {
    route: flag,
    standsFor: input.standsFor ?? null,
    method,
    path: routePath(flag, input.snapshot.id, input.agencyId),
    body: renderEventBody(flag, input),
  };
}

/** Rule 2: the specific event when its flag is declared, else generic `changed` when declared, else nothing. */
function specificOrChanged(flag: V3Flag, input: RenderInput, flags: ReadonlySet<V3Flag>): PlannedEvent[] {
  if (flags.has(flag)) return [build(flag, input)];
  if (flags.has("incident.changed")) return [build("incident.changed", { ...input, standsFor: flag })];
  return [];
}

const nonEmptyTracks = (s: TIncidentSnapshotV3) => s.caller.tracks.filter((t) => t.track.length > 0);

/** Rule 6: create first, then one whole-track PUT per non-empty source (also without incident.created). */
export function planIntroduction(snapshot: TIncidentSnapshotV3, flags: ReadonlySet<V3Flag>): Plan {
  const events = specificOrChanged("incident.created", { snapshot }, flags);
  const createSent = flags.has("incident.created");
  const full = new Set<TLocationSource>(createSent ? nonEmptyTracks(snapshot).map((t) => t.source) : []);
  if (flags.has("caller.trackReplaced")) {
    for (const t of nonEmptyTracks(snapshot)) {
      events.push(build("caller.trackReplaced", { snapshot, source: t.source }));
      full.add(t.source);
    }
  }
  return { events, lane: { introduced: true, fullTracks: [...full] } };
}

/**
 * Delivery rule 5 (re-send after an outage): the create-and-track sequence, and for a closed
 * incident its closed event too — a create alone would leave the receiver's copy open for good
 * (a scenario test caught a resent closed incident coming back open on the replica).
 */
export function planResendSequence(
  snapshot: TIncidentSnapshotV3,
  flags: ReadonlySet<V3Flag>,
  closedAtUtc: string | null,
): Plan {
  const plan = planIntroduction(snapshot, flags);
  if (closedAtUtc !== null) plan.events.push(...specificOrChanged("incident.closed", { snapshot, closedAtUtc }, flags));
  return plan;
}

function planTrackChange(
  change: IncidentChange & { kind: "caller.newLocation" | "caller.trackReplaced" },
  flags: ReadonlySet<V3Flag>,
  lane: LaneState,
): Plan {
  const { snapshot, source } = change;
  const full = new Set(lane.fullTracks);
  const track = snapshot.caller.tracks.find((t) => t.source === source)?.track ?? [];
  // Rule 5: an append only for a track the receiver holds in full.
  if (change.kind === "caller.newLocation" && flags.has("caller.newLocation") && full.has(source)) {
    return { events: [build("caller.newLocation", { snapshot, location: change.location })], lane };
  }
  let events: PlannedEvent[] = [];
  if (track.length === 0) {
    full.delete(source); // never an empty track
  } else if (flags.has("caller.trackReplaced")) {
    // Rule 4: trackReplaced alone (or an append to a track not yet held) → the whole track.
    events = [build("caller.trackReplaced", { snapshot, source })];
    full.add(source);
  } else {
    // The receiver's copy is stale from here on: no append may follow until a whole track is sent.
    full.delete(source);
    if (flags.has("incident.changed")) events = [build("incident.changed", { snapshot, standsFor: change.kind })];
  }
  return { events, lane: { ...lane, fullTracks: [...full] } };
}

export function planEvents({ change, flags, lane }: PlanInput): Plan {
  const { snapshot } = change;
  if (!lane.introduced) {
    // A receiver that has not been sent this incident yet (created, newly involved, or a resend):
    // the snapshot already holds this change, so the create-and-track sequence carries it.
    const intro = planIntroduction(snapshot, flags);
    if (change.kind === "incident.closed")
      intro.events.push(...specificOrChanged("incident.closed", { snapshot, closedAtUtc: change.closedAtUtc }, flags));
    return intro;
  }
  const same = (events: PlannedEvent[]): Plan => ({ events, lane });
  // A change goes by the route of its own name (routes.ts), the rules below aside.
  switch (change.kind) {
    case "incident.created":
      return same([]); // already introduced: nothing new
    case "incident.closed":
      return same(specificOrChanged(change.kind, { snapshot, closedAtUtc: change.closedAtUtc }, flags));
    case "caller.fullNameChanged":
    case "caller.phoneNumberChanged":
    case "caller.deviceInfoChanged":
      // Rule 3: caller.changed supersedes the three PATCHes, whatever their flags.
      if (flags.has("caller.changed")) return same([build("caller.changed", { snapshot })]);
      return same(specificOrChanged(change.kind, { snapshot }, flags));
    case "caller.newLocation":
    case "caller.trackReplaced":
      return planTrackChange(change, flags, lane);
    case "involvedAgency.invited":
    case "involvedAgency.collaboration.changed":
      return same(specificOrChanged(change.kind, { snapshot, agencyId: change.agencyId }, flags));
    default:
      // A change with no more to decide than its flag (rule 2).
      return same(specificOrChanged(change.kind, { snapshot }, flags));
  }
}
