// PURE planning for v1/v2 integrations, on the same planner as v3: the change
// is planned as for a v3 receiver declaring every flag v2 has a route for
// (LEGACY_FLAGS, so rules 5 and 6 — whole tracks before appends, create then
// tracks — apply unchanged), then each v3 event is translated into its v2 route
// (Versioning rule 7). Decisions (documented in the JSON Schema document):
// - v2 has no capability flags: /about's `supports` is read for nothing, every v2 route is sent;
// - a change no v2 route expresses is POST /v2/incident with the whole incident (upsert);
// - device info changed → both PATCH battery-level and PATCH internet-connection-type;
// - MobileApp and MobileAppSms share the v2 MobileApp track: an append goes as POST
//   position only when the receiver holds every part of that merged track, else as PUT.
import { timeOrderedUuid } from "../../platform/time-ordered-uuid.ts";
import type { IncidentChange } from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "../../incidents/snapshot.schema.ts";
import { V3_FLAGS, type V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { renderLegacyBody, type LegacyRenderInput } from "../../webhook-contracts/v2/render-event-body.ts";
import { V2_SOURCE_OF, v3SourcesOf } from "../../webhook-contracts/v2/render-incident.ts";
import { LEGACY_ROUTES, legacyPath, type LegacyMajor, type LegacyRouteKey } from "../../webhook-contracts/v2/routes.ts";
import { NEW_LANE, planEvents, type LaneState, type PlannedEvent } from "./plan-events.ts";

/** The v3 flags whose events have a v2 route (caller.changed and the generic changed have none). */
export const LEGACY_FLAGS: ReadonlySet<V3Flag> = new Set(
  V3_FLAGS.filter((f) => f !== "caller.changed" && f !== "incident.changed"),
);

export type LegacyPlannedEvent = {
  route: LegacyRouteKey;
  method: "POST" | "PUT" | "PATCH";
  path: string;
  body: Record<string, unknown>;
  /** Fixed at planning: it is in the body (v1/v2 carry requestId there), so the outbox row must use it. */
  requestId: string;
  eventName: string;
};

export type LegacyPlan = { events: LegacyPlannedEvent[]; lane: LaneState };

type Ctx = { change: IncidentChange; major: LegacyMajor; newId: () => string };

function build(
  ctx: Ctx,
  key: LegacyRouteKey,
  extra: Omit<LegacyRenderInput, "snapshot" | "requestId" | "producedAt"> = {},
): LegacyPlannedEvent {
  const requestId = ctx.newId();
  const body = renderLegacyBody(key, {
    snapshot: ctx.change.snapshot,
    requestId,
    producedAt: ctx.change.producedAt,
    temporary: ctx.change.temporaryInformation ?? null,
    ...extra,
  });
  return {
    route: key,
    method: LEGACY_ROUTES[key].method,
    path: legacyPath(key, ctx.major, ctx.change.snapshot.id),
    body,
    requestId,
    eventName: `v${ctx.major} ${key}`,
  };
}

const nonEmpty = (s: TIncidentSnapshotV3, source: TLocationSource) =>
  (s.caller.tracks.find((t) => t.source === source)?.track.length ?? 0) > 0;

/** Every v3 source of `source`'s v2 track that has locations: what a whole v2 track PUT gives the receiver. */
function partsOf(s: TIncidentSnapshotV3, source: TLocationSource): TLocationSource[] {
  return v3SourcesOf(V2_SOURCE_OF[source]).filter((x) => nonEmpty(s, x));
}

function translate(ctx: Ctx, e: PlannedEvent, laneBefore: LaneState, full: Set<TLocationSource>): LegacyPlannedEvent[] {
  const s = ctx.change.snapshot;
  switch (e.route) {
    case "incident.created":
      return [build(ctx, "incident")];
    case "incident.closed":
      return [build(ctx, "close", { closedAtUtc: (e.body as { closedAtUtc: string }).closedAtUtc })];
    case "caller.newLocation": {
      const location = (e.body as { location: TLocation }).location;
      const parts = partsOf(s, location.source);
      if (parts.every((p) => p === location.source || laneBefore.fullTracks.includes(p)))
        return [build(ctx, "positionAppended", { location })];
      parts.forEach((p) => full.add(p));
      return [build(ctx, "positionReplaced", { positionSource: V2_SOURCE_OF[location.source] })];
    }
    case "caller.trackReplaced": {
      const source = (e.body as { source: TLocationSource }).source;
      partsOf(s, source).forEach((p) => full.add(p));
      return [build(ctx, "positionReplaced", { positionSource: V2_SOURCE_OF[source] })];
    }
    case "caller.deviceInfoChanged":
      return [build(ctx, "batteryLevel"), build(ctx, "internetConnectionType")];
    case "caller.liveVideo.activated":
      return [build(ctx, "startVideo")];
    case "involvedAgency.invited":
      return [build(ctx, "psap", { agencyId: (e.body as { agency: { id: string } }).agency.id })];
    default:
      return [build(ctx, "incident")]; // no v2 route: the whole incident (upsert)
  }
}

/** Whole-track PUTs of one v2 source in one plan carry the same merged track (one snapshot): keep the first. */
function dropRepeatedTrackPuts(events: LegacyPlannedEvent[]): LegacyPlannedEvent[] {
  const sent = new Set<unknown>();
  return events.filter((e) => {
    if (e.route !== "positionReplaced") return true;
    if (sent.has(e.body.positionSource)) return false;
    sent.add(e.body.positionSource);
    return true;
  });
}

export function planLegacyEvents(options: {
  change: IncidentChange;
  lane: LaneState;
  major: LegacyMajor;
  newId?: () => string;
}): LegacyPlan {
  const { change, lane } = options;
  const ctx: Ctx = { change, major: options.major, newId: options.newId ?? (() => timeOrderedUuid(change.producedAt)) };
  // Composed caller data (a data source linked, medical data, …): no v2 route, and no v3 event under LEGACY_FLAGS.
  if (change.kind === "caller.changed" && lane.introduced) return { events: [build(ctx, "incident")], lane };
  const v3 = planEvents({ change, flags: LEGACY_FLAGS, lane });
  const full = new Set(v3.lane.fullTracks);
  const events = dropRepeatedTrackPuts(v3.events.flatMap((e) => translate(ctx, e, lane, full)));
  return { events, lane: { introduced: v3.lane.introduced, fullTracks: [...full] } };
}

/**
 * Rule 5 resend for a v1/v2 integration: the create-and-track sequence, as new events, and for a
 * closed incident its close too (as planResendSequence does for v3: the v2 incident body has no
 * closed state, so a create alone would leave the receiver's copy open for good).
 */
export function planLegacyIntroduction(options: {
  snapshot: TIncidentSnapshotV3;
  seq: number;
  now: Date;
  major: LegacyMajor;
  closedAtUtc?: string | null;
  /** The caller's temporary-information warning now (the incident's internal state), if any. */
  temporaryInformation?: IncidentChange["temporaryInformation"];
}): LegacyPlan {
  const closedAtUtc = options.closedAtUtc ?? null;
  const base = {
    incidentId: options.snapshot.id,
    seq: options.seq,
    producedAt: options.now,
    actor: "resend",
    snapshot: options.snapshot,
    temporaryInformation: options.temporaryInformation ?? null,
  };
  // Planned on a new lane, a close is the introduction followed by the close (plan-events.ts).
  const change: IncidentChange =
    closedAtUtc === null ? { kind: "incident.created", ...base } : { kind: "incident.closed", closedAtUtc, ...base };
  return planLegacyEvents({ change, lane: NEW_LANE, major: options.major });
}
