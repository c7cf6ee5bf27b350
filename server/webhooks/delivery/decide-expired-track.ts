// PURE decision (CONTRIBUTING.md, 'Pure decisions'): what an expired event means for the
// tracks its receiver holds (never an append for a track not yet delivered in full:
// spec, receiver-route rules 5 and 6, Delivery rule 5).
//
// - An expired APPEND (v3 POST caller/track, v1/v2 POST position) changes
//   nothing here: the receiver held that track in full, later appends keep
//   coming, and the lost location is the permanent hole Delivery rule 5 names
//   (healed by `incidents resend`). Integrators must see exactly that.
// - An expired WHOLE-TRACK event (v3 PUT caller/track, v1/v2 PUT position)
//   means the receiver never got that track in full. The first event behind it
//   in the lane that touches the same track decides:
//     a whole track (a PUT, or a create/v2 upsert)  → healed by it, nothing to do;
//     an append                                     → rewritten in place into a
//       whole-track PUT (as of that append's change), so it and every append
//       after it follow a full track;
//     nothing queued                                → the track leaves the lane's
//       fullTracks, so the planner sends the next change of it as a whole track.
//   A track healed by the queue (the rewritten append included) stays in
//   fullTracks: the lane describes the receiver once its queue is delivered, and
//   if the healing PUT expires too, this decision runs again for it.
// - An expired create (v3 POST incidents, v1/v2 POST incident) forgets the
//   tracks no whole-track event behind it resends, as before; nothing is
//   rewritten: a receiver that lost the create does not hold the incident, and
//   the create-and-track PUTs produced with it expire with it (same hour) and
//   take the branch above.
import type { TLocationSource } from "../../incidents/snapshot.schema.ts";
import type { TPositionSourceV2 } from "../../webhook-contracts/v2/incident.schema.ts";
import { V2_SOURCE_OF, v3SourcesOf } from "../../webhook-contracts/v2/render-incident.ts";
import { matchLegacyRoute, type LegacyMajor } from "../../webhook-contracts/v2/routes.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { routePath, V3_ROUTES } from "../../webhook-contracts/v3/routes.ts";

/** One outbox row as the decision sees it (lane order = id order). */
export type OutboxEvent = { id: bigint; method: string; path: string; body: unknown };

/** One track of one contract: a v3 source, or a v1/v2 position source (MobileApp merges two v3 sources). */
export type TrackRef =
  { contract: 3; source: TLocationSource } | { contract: LegacyMajor; positionSource: TPositionSourceV2 };

export type WholeTrackRewrite = { deliveryId: bigint; track: TrackRef };
export type ExpiredTrackDecision = { fullTracks: string[]; rewrites: WholeTrackRewrite[] };

type Effect =
  { kind: "whole"; contract: 3 | LegacyMajor; tracks: TrackRef[] | "all" } | { kind: "append"; track: TrackRef } | null;

const MARKER = /^@contract:v(\d)$/; // legacy-lane.ts: a v1/v2 lane carries its contract in fullTracks

const keyOf = (t: TrackRef) => (t.contract === 3 ? `3:${t.source}` : `${t.contract}:${t.positionSource}`);
const v3SourcesOfTrack = (t: TrackRef): TLocationSource[] =>
  t.contract === 3 ? [t.source] : v3SourcesOf(t.positionSource);
const trackOfSource = (contract: 3 | LegacyMajor, source: TLocationSource): TrackRef =>
  contract === 3 ? { contract, source } : { contract, positionSource: V2_SOURCE_OF[source] };

/** What an outbox event does to the receiver's tracks. */
function trackEffect(e: OutboxEvent, incidentId: string): Effect {
  const legacy = matchLegacyRoute(e.method, e.path);
  if (legacy) {
    const contract = legacy.major;
    const body = e.body as { positionSource?: TPositionSourceV2; position?: { positionSource: TPositionSourceV2 } };
    if (legacy.key === "incident") return { kind: "whole", contract, tracks: "all" }; // an upsert: the receiver replaces its copy
    if (legacy.key === "positionReplaced")
      return { kind: "whole", contract, tracks: [{ contract, positionSource: body.positionSource! }] };
    if (legacy.key === "positionAppended")
      return { kind: "append", track: { contract, positionSource: body.position!.positionSource } };
    return null;
  }
  const is = (flag: V3Flag) => e.method === V3_ROUTES[flag].method && e.path === routePath(flag, incidentId);
  if (is("incident.created")) return { kind: "whole", contract: 3, tracks: "all" };
  if (is("caller.trackReplaced"))
    return {
      kind: "whole",
      contract: 3,
      tracks: [{ contract: 3, source: (e.body as { source: TLocationSource }).source }],
    };
  if (is("caller.newLocation"))
    return {
      kind: "append",
      track: { contract: 3, source: (e.body as { location: { source: TLocationSource } }).location.source },
    };
  return null;
}

/** The first queued event touching `track`: "whole", or the append's id, or null when none does. */
function firstTouch(track: TrackRef, queued: readonly OutboxEvent[], incidentId: string): "whole" | bigint | null {
  for (const e of queued) {
    const effect = trackEffect(e, incidentId);
    if (!effect) continue;
    if (effect.kind === "append") {
      if (keyOf(effect.track) === keyOf(track)) return e.id;
    } else if (
      effect.contract === track.contract &&
      (effect.tracks === "all" || effect.tracks.some((t) => keyOf(t) === keyOf(track)))
    ) {
      return "whole";
    }
  }
  return null;
}

/** null: the expired event carried no whole track (an append: a hole, by the spec; or any other route). */
export function decideExpiredTrack(input: {
  incidentId: string;
  expired: OutboxEvent;
  fullTracks: readonly string[];
  queued: readonly OutboxEvent[];
}): ExpiredTrackDecision | null {
  const { incidentId, queued } = input;
  const effect = trackEffect(input.expired, incidentId);
  if (!effect || effect.kind !== "whole") return null;
  const marker = input.fullTracks.map((s) => MARKER.exec(s)).find(Boolean);
  const laneContract = marker ? Number(marker[1]) : 3;
  const held = input.fullTracks.filter((s) => !MARKER.test(s)) as TLocationSource[];
  // An expired create concerns every track the lane holds; a whole-track PUT, its own track.
  const lost =
    effect.tracks === "all"
      ? [...new Map(held.map((s) => trackOfSource(effect.contract, s)).map((t) => [keyOf(t), t])).values()]
      : effect.tracks;
  const rewrites: WholeTrackRewrite[] = [];
  const forget = new Set<string>();
  for (const track of lost) {
    const touch = firstTouch(track, queued, incidentId);
    if (touch === "whole") continue;
    if (touch !== null && effect.tracks !== "all") {
      rewrites.push({ deliveryId: touch, track });
      continue;
    }
    v3SourcesOfTrack(track).forEach((s) => forget.add(s));
  }
  // After a contract switch (the cutover, Versioning rule 3) the lane started anew under the other contract: its tracks are not these.
  const fullTracks =
    laneContract === effect.contract ? input.fullTracks.filter((s) => !forget.has(s)) : [...input.fullTracks];
  return { fullTracks, rewrites };
}
