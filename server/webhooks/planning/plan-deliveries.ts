// The change subscriber: plans an incident change's deliveries into the outbox
// in the statement that records the change (transactional outbox, CONTRIBUTING.md,
// 'Transactional outbox'), so a change and its deliveries commit or roll back together.
import { timeOrderedUuid } from "../../platform/time-ordered-uuid.ts";
import { Prisma } from "../../platform/db/client.ts";
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import {
  appliedTo,
  executePlannedWrite,
  type ChangeSubscriber,
  type IncidentChange,
  type PlannedWrite,
} from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { currentSnapshotSql } from "../../incidents/track-storage.ts";
import { v3EventName, type V3RouteKey } from "../../webhook-contracts/v3/routes.ts";
import type { LegacyRouteKey } from "../../webhook-contracts/v2/routes.ts";
import { webhookEvents } from "../webhook-events.ts";
import {
  loadPlanningTargets,
  prefetchPlanningTargets,
  toPlanningTargets,
  type PlanningTarget,
  type PrefetchedTargets,
  type StoredLane,
} from "./load-targets.ts";
import { laneToStore } from "./legacy-lane.ts";
import { NEW_LANE, planEvents, planResendSequence, type LaneState, type Plan } from "./plan-events.ts";
import { planLegacyEvents, planLegacyIntroduction, type LegacyPlan } from "./plan-legacy-events.ts";
import { selectRecipientAgencies } from "./select-recipients.ts";
import { laneKey, type ClaimedDelivery } from "../delivery/claim-deliveries.ts";
import { localClaimer, type LocalClaimer } from "../delivery/local-claimer.ts";
import { activeTracing } from "../../platform/tracing/tracing.ts";
import { tracePlanning } from "./trace-planning.ts";

export const OUTBOX_CHANNEL = "webhook_outbox";

type Tx = SqlTx;
export type PlannedRow = {
  id: bigint;
  requestId: string;
  integrationKey: string;
  incidentId: string;
  method: string;
  path: string;
  eventName: string;
};
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
  const locationChange = changes.some((c) => c.kind === "caller.locationAdded" || c.kind === "caller.trackReplaced");
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
export const ROUTES_WITH_TRACKS: ReadonlySet<string> = new Set<V3RouteKey | LegacyRouteKey>([
  "created",
  "caller",
  "trackReplaced",
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

/** Rule 5: after an outage, re-send the incident's create-and-track sequence, and its close if closed (to one integration or all). */
export async function planResend(
  tx: Tx,
  options: { incidentId: string; integrationKey?: string; now: Date },
): Promise<PlannedRow[]> {
  // Takes the incident's row lock and bumps planEpoch: lanes are written only under it (apply-change.ts).
  const [locked] = await tx.query<{ lastSeq: number; closedAt: Date | null }>(Prisma.sql`
    UPDATE "Incident" SET "planEpoch" = "planEpoch" + 1 WHERE id = ${options.incidentId}::uuid
    RETURNING "lastSeq", "closedAt"`);
  if (!locked) return [];
  const seq = locked.lastSeq;
  // Read after the lock is held: a statement of its own sees the positions of any writer it waited for.
  const [current] = await tx.query<{ snapshot: TIncidentSnapshotV3 }>(Prisma.sql`
    SELECT ${currentSnapshotSql("i")} AS snapshot FROM "Incident" i WHERE i.id = ${options.incidentId}::uuid`);
  const snapshot = current!.snapshot;
  const agencyIds = snapshot.involvedAgencies.filter((a) => a.collaboration !== "Declined").map((a) => a.id);
  const targets = await loadPlanningTargets(tx, {
    incidentId: options.incidentId,
    agencyIds,
    integrationKey: options.integrationKey,
  });
  const closedAtUtc = locked.closedAt?.toISOString() ?? null;
  // The create-and-track sequence (and the close, for a closed incident): v3's, or v1/v2's legacy introduction.
  // An integration without an accepted declaration gets nothing planned against a guess: its lane's
  // held changes (if any) are planned, create-and-track sequence first, once one is accepted.
  const plans = targets
    .filter((target) => !target.held && target.heldFromSeq === null)
    .map((target) => ({
      target,
      plan:
        target.major === 3
          ? planResendSequence(snapshot, target.flags, closedAtUtc)
          : planLegacyIntroduction({ snapshot, seq, now: options.now, major: target.major, closedAtUtc }),
    }));
  const data = toPlanData(options.incidentId, [{ seq, producedAt: options.now, plans }]);
  if (!data) return [];
  return toPlannedRows(
    ((await executePlannedWrite(tx, options.incidentId, composePlanWrite([data]))) ?? []) as PlannedJson[],
  );
}

type PlannedJson = {
  id: string;
  requestId: string;
  integrationKey: string;
  incidentId: string;
  method: string;
  path: string;
  eventName: string;
  /** Inserted claimed by this process's worker (claim at production). */
  claimed?: boolean;
};

const toPlannedRows = (rows: PlannedJson[]): PlannedRow[] => rows.map((r) => ({ ...r, id: BigInt(r.id) }));
const sameLane = (a: StoredLane, b: StoredLane | null | undefined) =>
  !!b &&
  a.introduced === b.introduced &&
  a.heldFromSeq === b.heldFromSeq &&
  a.fullTracks.length === b.fullTracks.length &&
  a.fullTracks.every((s, i) => s === b.fullTracks[i]);

/** One incident's plan: the lanes whose state changed and the outbox rows, in plan order (= lane order). */
export type PlanData = {
  incidentId: string;
  /** The worker that takes the heads of idle lanes claimed in the write (claim at production); absent: all pending. */
  claimer?: LocalClaimer;
  updatedAt: Date;
  lanes: Array<StoredLane & { integrationKey: string }>;
  deliveries: Array<{
    requestId: string;
    integrationKey: string;
    agencyId: string;
    seq: number;
    producedAt: Date;
    eventName: string;
    method: string;
    path: string;
    body: unknown;
    /** Absent (NULL) when tracing is off: JSON.stringify leaves it out. */
    traceparent?: string;
  }>;
};

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
          "eventName" in e ? e.eventName : e.route === "changed" ? `changed (${e.standsFor})` : v3EventName(e.route),
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

/**
 * Everything the plans of one or more incidents write, as CTEs of the
 * aggregate's record statement: the lanes whose state changed and the outbox
 * rows (ids in plan order = lane order; each incident's rows only if its change
 * applied). Measured on PostgreSQL 15 here: the six Prisma calls this replaced
 * cost ~7 ms of CPU per change; as CTEs of the record statement it costs no
 * round trip at all. A lane the plan left as it was is not rewritten (most
 * changes: an append to an introduced lane). Workers in other processes learn
 * of the rows from the NOTIFY sent after the commit (delivery/outbox-notifier.ts).
 *
 * Claim at production (decision 0030): when this process's worker has room, the first new row of
 * each lane is inserted claimed by it (delivering, its lease on the database's clock) if the lane
 * has no unfinished row — it is the lane's head, as a claim would find it — and is handed to the
 * worker after the commit. The lane check reads the statement's snapshot; it cannot miss a row of
 * the lane, because every writer of a lane's rows holds or checks the incident's row (the record
 * statement's xmin-checked UPDATE, the locked path's and resend's row lock before a statement of
 * their own): a writer that committed after this snapshot made `applied` skip this incident. A head
 * that finishes concurrently is seen unfinished: its new successor is then planned pending, as before.
 */
export function composePlanWrite(plans: PlanData[]): PlannedWrite {
  const lanes = plans.flatMap((p) => p.lanes.map((l) => ({ ...l, incidentId: p.incidentId, updatedAt: p.updatedAt })));
  const claimer = plans.find((p) => p.claimer)?.claimer;
  let room = claimer ? claimer.room() : 0;
  const offered = new Set<string>();
  const deliveries = plans
    .flatMap((p) => p.deliveries.map((d) => ({ ...d, incidentId: p.incidentId })))
    .map((d, n) => {
      const lane = laneKey(d);
      const claim = room > 0 && !offered.has(lane);
      if (claim) room--;
      offered.add(lane);
      return { ...d, n, claim };
    });
  const claimedAtMs = performance.now();
  return {
    ctes: Prisma.sql`
    ${
      lanes.length
        ? Prisma.sql`wh_lanes AS (
      INSERT INTO "WebhookLane" ("integrationKey", "incidentId", introduced, "fullTracks", "heldFromSeq", "updatedAt")
      SELECT l."integrationKey", l."incidentId", l.introduced, l."fullTracks", l."heldFromSeq", l."updatedAt"
      FROM jsonb_to_recordset(${JSON.stringify(lanes)}::jsonb) AS l("integrationKey" text, "incidentId" uuid, introduced boolean, "fullTracks" text[], "heldFromSeq" int, "updatedAt" timestamptz)
      WHERE ${appliedTo(Prisma.sql`l."incidentId"`)}
      ON CONFLICT ("integrationKey", "incidentId") DO UPDATE SET introduced = EXCLUDED.introduced, "fullTracks" = EXCLUDED."fullTracks", "heldFromSeq" = EXCLUDED."heldFromSeq", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING 1
    ),`
        : Prisma.empty
    } wh_planned AS (
      INSERT INTO "WebhookDelivery" ("requestId", "integrationKey", "agencyId", "incidentId", "changeSeq", "eventName", method, path, body, "producedAt", "nextAttemptAt",
                                     state, "claimedAt", "claimedBy", "leaseExpiresAt", traceparent)
      SELECT d."requestId", d."integrationKey", d."agencyId", d."incidentId", d.seq, d."eventName", d.method, d.path,
             NULLIF(d.body, 'null'::jsonb), d."producedAt", d."producedAt",
             CASE WHEN h.idle THEN 'delivering' ELSE 'pending' END::"WebhookDeliveryState",
             CASE WHEN h.idle THEN d."producedAt" END, CASE WHEN h.idle THEN ${claimer?.workerId ?? null}::text END,
             CASE WHEN h.idle THEN clock_timestamp() + ${claimer?.leaseMs ?? 0}::int * interval '1 millisecond' END,
             d.traceparent
      FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb)
           AS d("requestId" uuid, "integrationKey" text, "agencyId" uuid, "incidentId" uuid, seq int, "producedAt" timestamptz, "eventName" text, method text, path text, body jsonb, n int, claim boolean, traceparent text)
      -- The lane has no unfinished row: its first unfinished row at or after the lane in the lane
      -- index (the claims' row comparison: only that index serves it) belongs to another lane.
      CROSS JOIN LATERAL (SELECT CASE WHEN d.claim THEN NOT EXISTS (
          SELECT 1 FROM (SELECT p."integrationKey" AS ik, p."incidentId" AS inc FROM "WebhookDelivery" p
                         WHERE p.state IN ('pending', 'delivering') AND (p."integrationKey", p."incidentId") >= (d."integrationKey", d."incidentId")
                         ORDER BY p."integrationKey", p."incidentId", p.id LIMIT 1) f
          WHERE f.ik = d."integrationKey" AND f.inc = d."incidentId") ELSE false END AS idle) h
      WHERE ${appliedTo(Prisma.sql`d."incidentId"`)}
      ORDER BY d.n
      RETURNING id, "requestId", "integrationKey", "incidentId", method, path, "eventName", state = 'delivering' AS claimed
    )`,
    result: Prisma.sql`(SELECT coalesce(jsonb_agg(jsonb_build_object('id', p.id::text, 'requestId', p."requestId"::text, 'integrationKey', p."integrationKey",
      'incidentId', p."incidentId"::text, 'method', p.method, 'path', p.path, 'eventName', p."eventName", 'claimed', p.claimed) ORDER BY p.id), '[]'::jsonb)
      FROM wh_planned p)`,
    committed: (result) => {
      const planned = (result ?? []) as PlannedJson[];
      const events = webhookEvents();
      for (const { id, claimed: _claimed, ...r } of planned) events.emit("delivery:planned", { ...r, deliveryId: id });
      const claimed = planned.filter((r) => r.claimed);
      if (claimer && claimed.length) claimer.take(toClaimedRows(claimed, deliveries), claimedAtMs);
      // Pending rows wake the worker (a head it had no room for), unless they only queue behind heads it holds.
      const pending = planned.filter((r) => !r.claimed);
      if (pending.length) events.emit("outbox:wake", [...new Set(pending.map(laneKey))]);
    },
  };
}

/** The claimed rows as a claim returns them, their bodies and times from the plan (not read back). */
function toClaimedRows(
  rows: PlannedJson[],
  planned: Array<PlanData["deliveries"][number] & { incidentId: string }>,
): ClaimedDelivery[] {
  const byRequestId = new Map(planned.map((d) => [d.requestId, d]));
  return rows.map((r) => {
    const d = byRequestId.get(r.requestId)!;
    return {
      id: BigInt(r.id),
      requestId: r.requestId,
      integrationKey: r.integrationKey,
      agencyId: d.agencyId,
      incidentId: r.incidentId,
      eventName: r.eventName,
      method: r.method,
      path: r.path,
      body: d.body ?? null,
      producedAt: d.producedAt,
      attemptCount: 0,
      claimedAt: d.producedAt,
      traceparent: d.traceparent ?? null,
    };
  });
}
