// The change subscriber: plans an incident change's deliveries — for every recipient integration,
// its events by the pure planners (plan-events.ts, plan-legacy-events.ts) and its lane afterwards —
// as the outbox rows that write-planned-deliveries.ts writes in the statement that records the change
// (transactional outbox, CONTRIBUTING.md, 'Transactional outbox').
import { timeOrderedUuid } from "../../platform/time-ordered-uuid.ts";
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import type { ChangeSubscriber, IncidentChange } from "../../incidents/change-record.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { genericEventName, v3EventName } from "../../webhook-contracts/v3/routes.ts";
import type { LegacyRouteKey } from "../../webhook-contracts/v2/routes.ts";
import {
  loadPlanningTargets,
  prefetchPlanningTargets,
  toPlanningTargets,
  type PlanningTarget,
  type PrefetchedTargets,
  type StoredLane,
} from "./load-targets.ts";
import { laneToStore } from "./legacy-lane.ts";
import { NEW_LANE, planEvents, type LaneState, type Plan } from "./plan-events.ts";
import { planLegacyEvents, type LegacyPlan } from "./plan-legacy-events.ts";
import { selectRecipientAgencies } from "./select-recipients.ts";
import { localClaimer } from "../outbox/local-claimer.ts";
import { composePlanWrite, type PlanData } from "./write-planned-deliveries.ts";
import { activeTracing } from "../../platform/tracing/tracing.ts";
import { tracePlanning } from "./trace-planning.ts";

type Tx = SqlTx;
export type TargetPlan = { target: PlanningTarget; plan: Plan | LegacyPlan };
export type PlanStep = { seq: number; producedAt: Date; plans: TargetPlan[] };

/**
 * The subscriber registered at start-up (change-record.ts): the lanes and
 * capabilities of the incident's integrations are read in the aggregate's read
 * statement, and the outbox rows of every incident of a batch are written in its
 * record statement, so planning adds no round trip to an inbound change.
 */
export const planDeliveriesOnChange: ChangeSubscriber = {
  name: "webhooks",
  prefetch: prefetchPlanningTargets,
  plan(tx, changes, prefetched, fullTracks, trace) {
    const tracing = activeTracing();
    if (tracing === null) return planOnChange(tx, changes, prefetched, fullTracks);
    return tracePlanning(tracing, trace, changes, (traceparent) =>
      planOnChange(tx, changes, prefetched, fullTracks, traceparent),
    );
  },
  write: (plans) => composePlanWrite(plans as PlanData[]),
  nextPrefetch: (prefetched, plan) =>
    prefetchAfter(prefetched as PrefetchedTargets | undefined, plan as PlanData | null),
};

/** `traceparent`: the change's span, kept on each row its attempts' spans are parented to (decision 0054). */
async function planOnChange(
  tx: Tx,
  changes: IncidentChange[],
  prefetched: unknown,
  fullTracks: (() => Promise<void>) | undefined,
  traceparent?: string,
): Promise<PlanData | null> {
  // Plan on the lazy snapshot (tracks hold only this change's new positions);
  // when any event's body carries tracks, fill them and plan again (pure).
  const first = await planChanges(tx, changes, prefetched);
  const steps =
    !fullTracks || lazyPlanHolds(changes, first)
      ? first
      : (await fullTracks(), await planChanges(tx, changes, prefetched));
  const data = toPlanData(changes[0]!.incidentId, steps, traceparent);
  // This process's worker on the same database takes the idle lanes' new heads as they are written.
  return data && { ...data, claimer: localClaimer(tx.client) };
}

/** The targets as prefetched, with the lanes the plan writes as it writes them. */
export function prefetchAfter(
  prefetched: PrefetchedTargets | undefined,
  plan: PlanData | null,
): PrefetchedTargets | undefined {
  if (!prefetched || !plan?.lanes.length) return prefetched;
  const written = new Map(plan.lanes.map((l) => [l.integrationKey, l]));
  return {
    agencyIds: prefetched.agencyIds,
    rows: prefetched.rows.map((r) => {
      const lane = written.get(r.key);
      return lane
        ? { ...r, introduced: lane.introduced, fullTracks: lane.fullTracks, heldFromSeq: lane.heldFromSeq }
        : r;
    }),
  };
}

/**
 * Whether a plan made on lazy tracks (each track holding only the positions this
 * transaction added) is the plan whole tracks give. Decisions that look at other
 * tracks than the changed one: an introduction (a lane not yet introduced: one
 * PUT per non-empty track), and the v1/v2 append, whose v2 track merges several
 * v3 sources. Bodies: the routes in ROUTES_WITH_TRACKS. Anything else plans the
 * same (lazy-plan.test.ts checks it across capabilities, lanes and change kinds).
 */
export function lazyPlanHolds(
  changes: IncidentChange[],
  steps: Array<{
    plans: Array<{
      target: { major: number; lane: LaneState; held?: boolean };
      plan: { events: Array<{ route: string }> };
    }>;
  }>,
): boolean {
  const locationChange = changes.some((c) => c.kind === "caller.newLocation" || c.kind === "caller.trackReplaced");
  // A held lane plans nothing now, whatever the tracks hold.
  return steps.every(({ plans }) =>
    plans.every(
      ({ target, plan }) =>
        target.held ||
        (target.lane.introduced &&
          !(target.major !== 3 && locationChange) &&
          plan.events.every((e) => !ROUTES_WITH_TRACKS.has(e.route))),
    ),
  );
}

/**
 * The routes whose bodies carry caller tracks (v3: the snapshot, the caller, a
 * whole track; v1/v2: the incident, a whole track). Every other body is the
 * same whether the tracks were read or not — a test renders every route both
 * ways to hold this list true (routes-with-tracks.test.ts).
 */
export const ROUTES_WITH_TRACKS: ReadonlySet<string> = new Set<V3Flag | LegacyRouteKey>([
  "incident.created",
  "caller.changed",
  "caller.trackReplaced",
  "incident",
  "positionReplaced",
]);

/** Every change × every recipient integration, lanes evolving across the changes in memory (pure but for reading targets). */
async function planChanges(tx: Tx, changes: IncidentChange[], prefetched: unknown): Promise<PlanStep[]> {
  const incidentId = changes[0]!.incidentId;
  const known = prefetched as PrefetchedTargets | undefined;
  // Lanes evolve across the transaction's changes in memory: the rows are written once, at the end.
  const current = new Map<string, PlanningTarget>();
  const steps: PlanStep[] = [];
  for (const change of changes) {
    const agencyIds = selectRecipientAgencies(change);
    const loaded =
      known && agencyIds.every((a) => known.agencyIds.includes(a))
        ? toPlanningTargets(known.rows.filter((r) => agencyIds.includes(r.agencyId)))
        : await loadPlanningTargets(tx, { incidentId, agencyIds });
    const plans = loaded.map((fresh) => {
      const before = current.get(fresh.integrationKey);
      const target = {
        ...fresh,
        lane: before?.lane ?? fresh.lane,
        heldFromSeq: before ? before.heldFromSeq : fresh.heldFromSeq,
      };
      const planned = planForTarget(change, target);
      current.set(target.integrationKey, planned.target);
      return planned;
    });
    steps.push({ seq: change.seq, producedAt: change.producedAt, plans });
  }
  return steps;
}

/**
 * One change for one integration. Held — no accepted declaration, or earlier changes of this lane
 * still waiting for one (order: a lane's changes are planned in seq order, never around a held one)
 * — it plans nothing and marks the lane (heldFromSeq); plan-held-changes.ts plans the held changes
 * against the declaration once accepted. Otherwise the v3 planner, or the legacy one for v1/v2.
 */
export function planForTarget(change: IncidentChange, target: PlanningTarget): TargetPlan {
  if (target.held || target.heldFromSeq !== null) {
    const held = { ...target, held: true, heldFromSeq: target.heldFromSeq ?? change.seq };
    return { target: held, plan: { events: [], lane: target.lane } };
  }
  // Rule 6: an invited agency is newly involved — also one that declined before and is invited
  // again, whose lane says "introduced" but missed every change since its decline: it gets the
  // create-and-track sequence again, never an append to a track it no longer holds in full.
  const newlyInvolved = change.kind === "involvedAgency.invited" && change.agencyId === target.agencyId;
  const lane = newlyInvolved ? NEW_LANE : target.lane;
  // v1/v2 integrations are planned by the legacy planner (same rules, v2 routes and bodies).
  const plan =
    target.major === 3
      ? planEvents({ change, flags: target.flags, lane })
      : planLegacyEvents({ change, lane, major: target.major });
  return { target: { ...target, lane: plan.lane }, plan };
}

const sameLane = (a: StoredLane, b: StoredLane | null | undefined) =>
  !!b &&
  a.introduced === b.introduced &&
  a.heldFromSeq === b.heldFromSeq &&
  a.fullTracks.length === b.fullTracks.length &&
  a.fullTracks.every((s, i) => s === b.fullTracks[i]);

/** One incident's plan: the lanes whose state changed and the outbox rows, in plan order (= lane order). */
export function toPlanData(incidentId: string, steps: PlanStep[], traceparent?: string): PlanData | null {
  const deliveries = steps.flatMap(({ seq, producedAt, plans }) =>
    plans.flatMap(({ target, plan }) =>
      plan.events.map((e) => ({
        // v1/v2 events carry their requestId in the body: the legacy planner fixed it. Time-ordered,
        // so the unique index takes it on its newest pages (decision 0058).
        requestId: "requestId" in e ? e.requestId : timeOrderedUuid(producedAt),
        integrationKey: target.integrationKey,
        agencyId: target.agencyId,
        seq,
        producedAt,
        eventName:
          "eventName" in e ? e.eventName : e.standsFor !== null ? genericEventName(e.standsFor) : v3EventName(e.route),
        method: e.method,
        path: e.path,
        body: e.body,
        traceparent,
      })),
    ),
  );
  const last = new Map<string, { lane: StoredLane; stored: StoredLane | null | undefined }>();
  for (const { plans } of steps) {
    for (const { target, plan } of plans) {
      // A held lane keeps what it was sent (it may be planned under another major once accepted) and marks its first held change.
      const lane = target.held
        ? {
            introduced: target.stored?.introduced ?? false,
            fullTracks: target.stored?.fullTracks ?? [],
            heldFromSeq: target.heldFromSeq,
          }
        : { ...laneToStore(plan.lane, target.major), heldFromSeq: target.heldFromSeq };
      last.set(target.integrationKey, { lane, stored: target.stored });
    }
  }
  const lanes = [...last]
    .filter(([, l]) => !sameLane(l.lane, l.stored))
    .map(([integrationKey, l]) => ({ integrationKey, ...l.lane }));
  if (lanes.length === 0 && deliveries.length === 0) return null;
  return { incidentId, updatedAt: steps.at(-1)!.producedAt, lanes, deliveries };
}
