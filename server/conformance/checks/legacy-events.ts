// v1/v2 events for the kit, built the way the engine builds them: a story of v3
// changes on a sample snapshot, planned by planLegacyEvents (the legacy planner
// and the webhook-contracts/v2 renderers), never hand-written bodies. The lane threads
// through the story as the engine's does, so rule 6 (create, then whole tracks)
// and rule 5 (appends only after a full track) come out exactly as in production.
import type { IncidentChangeKind } from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3, TLocation, TLocationSource } from "../../incidents/snapshot.schema.ts";
import { LEGACY_ROUTES, type LegacyMajor } from "../../webhook-contracts/v2/routes.ts";
import { NEW_LANE } from "../../webhooks/planning/plan-events.ts";
import { planLegacyEvents, type LegacyPlannedEvent } from "../../webhooks/planning/plan-legacy-events.ts";
import type { ConformanceContext } from "../context.ts";
import type { ReceiverResponse } from "../receiver-http.ts";
import { unless200 } from "./deliver-events.ts";
import type { CheckOutcome } from "../check.ts";

/** One change of the story: what happened and the whole snapshot after it (as the aggregate records it). */
export type StoryStep = { change: IncidentChangeKind; snapshot: TIncidentSnapshotV3 };

export function planStory(ctx: ConformanceContext, major: LegacyMajor, steps: StoryStep[]): LegacyPlannedEvent[] {
  let lane = NEW_LANE;
  const events: LegacyPlannedEvent[] = [];
  steps.forEach((step, i) => {
    const change = {
      ...step.change,
      incidentId: step.snapshot.id,
      seq: i + 1,
      producedAt: ctx.clock.now(),
      actor: "conformance",
      snapshot: step.snapshot,
    };
    const plan = planLegacyEvents({ change, lane, major });
    lane = plan.lane;
    events.push(...plan.events);
  });
  return events;
}

export const created = (snapshot: TIncidentSnapshotV3): StoryStep => ({
  change: { kind: "incident.created" },
  snapshot,
});

/** The snapshot with `location` appended to its source's track. */
export function appended(snapshot: TIncidentSnapshotV3, location: TLocation): StoryStep {
  const tracks = snapshot.caller.tracks.some((t) => t.source === location.source)
    ? snapshot.caller.tracks.map((t) => (t.source === location.source ? { ...t, track: [...t.track, location] } : t))
    : [...snapshot.caller.tracks, { source: location.source, track: [location] }];
  return {
    change: { kind: "caller.newLocation", source: location.source, location },
    snapshot: { ...snapshot, caller: { ...snapshot.caller, tracks } },
  };
}

export function trackReplaced(snapshot: TIncidentSnapshotV3, source: TLocationSource, track: TLocation[]): StoryStep {
  const tracks = snapshot.caller.tracks.map((t) => (t.source === source ? { source, track } : t));
  return {
    change: { kind: "caller.trackReplaced", source },
    snapshot: { ...snapshot, caller: { ...snapshot.caller, tracks } },
  };
}

/** The last snapshot of a story, for the next step to change. */
export const last = (steps: StoryStep[]) => steps[steps.length - 1]!.snapshot;

/**
 * One delivery as the engine sends it: a PsapConnector token holding the route's psap.* scope,
 * no Service-Request-* headers (v1/v2 carry requestId in the body). Its answer time feeds the p95 check.
 */
export async function deliverLegacy(
  ctx: ConformanceContext,
  event: Pick<LegacyPlannedEvent, "route" | "method" | "path" | "body">,
): Promise<ReceiverResponse> {
  const token = await ctx.tokens.psapConnector([LEGACY_ROUTES[event.route].scope]);
  const res = await ctx.send({ method: event.method, path: event.path, body: event.body, token });
  if (res.status !== 0) ctx.state.latenciesMs.push(res.ms);
  return res;
}

/** Delivers events in order; the first answer other than exactly 200 fails the check. */
export async function deliverLegacyInOrder(
  ctx: ConformanceContext,
  events: LegacyPlannedEvent[],
): Promise<CheckOutcome | undefined> {
  for (const event of events) {
    const failed = unless200(await deliverLegacy(ctx, event), event);
    if (failed) return failed;
  }
  return undefined;
}

/** "POST /v2/incident, PUT /v2/incident/{id}/position": what a story sent, for a pass note. */
export const describeRoutes = (events: LegacyPlannedEvent[]) =>
  events.map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, "{id}")}`).join(", ");
