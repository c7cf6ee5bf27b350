// Writing a plan (planning/plan-deliveries.ts plans the rows): the lanes whose state changed and the
// outbox rows, as CTEs of the statement that records the change (transactional outbox,
// CONTRIBUTING.md, 'Transactional outbox'), so a change and its deliveries commit or roll back
// together; the heads of idle lanes inserted claimed for this process's worker (decision 0030); and,
// once committed, the `delivery:planned` and `outbox:wake` events.
import { Prisma } from "../../platform/db/client.ts";
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import { appliedTo, executePlannedWrite, type PlannedWrite } from "../../incidents/change-record.ts";
import { webhookEvents } from "../webhook-events.ts";
import { laneKey, type ClaimedDelivery, type PlannedRow } from "../outbox/outbox-row.ts";
import { firstUnfinishedFrom } from "../outbox/lane-statements.ts";
import type { LocalClaimer } from "../outbox/local-claimer.ts";
import type { StoredLane } from "./load-targets.ts";

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

/** A planned row as the write's JSON answer has it: its id as text. */
type PlannedJson = Omit<PlannedRow, "id"> & {
  id: string;
  /** Inserted claimed by this process's worker (claim at production). */
  claimed?: boolean;
};

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
          SELECT 1 FROM ${firstUnfinishedFrom(Prisma.sql`d."integrationKey"`, Prisma.sql`d."incidentId"`, Prisma.sql`p."integrationKey" AS ik, p."incidentId" AS inc`)} f
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

/** Writes one incident's plan outside a change's statement (a resend, held changes planned, a cutover), in `tx`. */
export async function writePlan(tx: SqlTx, data: PlanData): Promise<PlannedRow[]> {
  const planned = (await executePlannedWrite(tx, data.incidentId, composePlanWrite([data]))) ?? [];
  return (planned as PlannedJson[]).map((r) => ({ ...r, id: BigInt(r.id) }));
}
