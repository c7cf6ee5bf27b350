// The changes an integration's lanes held while it had no accepted /about
// declaration, planned once it has one (workbench decision: "nothing is planned
// against a guessed declaration: its events wait and are planned against the
// declaration it makes, each within its one-hour window from production";
// capability rule 2: a specific event only for a reported capability).
//
// While held, a lane stores only the seq of its first unplanned change
// (WebhookLane.heldFromSeq); the changes themselves are the incident's change
// records, with their snapshots as they were (incident_snapshot_at). Once a
// declaration is accepted, each held lane is planned here in one transaction
// under the incident's row lock (planEpoch bump, as resend and expiry do): the
// held changes in seq order through the same planner as live changes, events
// stamped with their change's production time, so the deliverer's one-hour
// window still counts from production. A change already older than the hour is
// not planned at all: it expired while waiting.
import { Prisma } from "../../platform/db/client.ts";
import { inSqlTransaction, type SqlTx } from "../../platform/db/sql-transaction.ts";
import type { Runtime } from "../../runtime.ts";
import type { IncidentChange } from "../../incidents/change-record.ts";
import type { TemporaryWarning } from "../../incidents/incident-state.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { changeSnapshotSql } from "../../incidents/track-storage.ts";
import { isExpired } from "../outbox/delivery-window.ts";
import { webhookEvents } from "../webhook-events.ts";
import { lockLaneTarget, type PlanningTarget } from "./load-targets.ts";
import { planForTarget, toPlanData, type PlanStep } from "./plan-deliveries.ts";
import { writePlan } from "./write-planned-deliveries.ts";
import { selectRecipientAgencies } from "./select-recipients.ts";

export type HeldLaneOutcome = { incidentId: string; planned: number; expired: number };

/** Plans every held lane of `integrationKey` whose declaration is now accepted (each lane its own transaction). */
export async function planHeldChanges(
  runtime: Pick<Runtime, "db" | "clock" | "logger">,
  integrationKey: string,
): Promise<HeldLaneOutcome[]> {
  const lanes = await runtime.db.$queryRaw<Array<{ incidentId: string }>>`
    SELECT "incidentId"::text AS "incidentId" FROM "WebhookLane" WHERE "integrationKey" = ${integrationKey} AND "heldFromSeq" IS NOT NULL`;
  const outcomes: HeldLaneOutcome[] = [];
  for (const { incidentId } of lanes) {
    const outcome = await inSqlTransaction(runtime.db, (tx) =>
      planHeldLane(tx, { integrationKey, incidentId, now: runtime.clock.now() }),
    );
    if (!outcome) continue;
    outcomes.push(outcome);
    if (outcome.expired)
      runtime.logger.warn(
        { integration: integrationKey, incidentId, expired: outcome.expired },
        "held changes older than an hour expired unplanned",
      );
    webhookEvents().emit("lane:held-planned", { integrationKey, ...outcome });
  }
  return outcomes;
}

type ChangeRow = {
  seq: number;
  kind: string;
  payload: Record<string, unknown>;
  producedAt: Date;
  actor: string;
  snapshot: TIncidentSnapshotV3;
  temporaryInformation: TemporaryWarning | null;
};

/** One held lane, under the incident's row lock. Null: nothing to do (no longer held, or still no accepted declaration). */
export async function planHeldLane(
  tx: SqlTx,
  options: { integrationKey: string; incidentId: string; now: Date },
): Promise<HeldLaneOutcome | null> {
  const { integrationKey, incidentId, now } = options;
  const target = await lockLaneTarget(tx, { integrationKey, incidentId });
  if (!target || target.held || target.heldFromSeq === null) return null;
  const rows = await tx.query<ChangeRow>(Prisma.sql`
    SELECT seq, kind, payload, "producedAt", actor, ${changeSnapshotSql()} AS snapshot, "temporaryInformation"
    FROM "IncidentChange" WHERE "incidentId" = ${incidentId}::uuid AND seq >= ${target.heldFromSeq} ORDER BY seq`);

  let current: PlanningTarget = { ...target, heldFromSeq: null };
  const steps: PlanStep[] = [];
  let expired = 0;
  for (const row of rows) {
    const change = {
      ...row.payload,
      kind: row.kind,
      incidentId,
      seq: row.seq,
      producedAt: new Date(row.producedAt),
      actor: row.actor,
      snapshot: row.snapshot,
      temporaryInformation: row.temporaryInformation,
    } as IncidentChange;
    if (!selectRecipientAgencies(change).includes(target.agencyId)) continue;
    if (isExpired(change.producedAt, now)) {
      // Expired while waiting: never planned. A lost track change leaves the receiver's copy of
      // that track short, so no append may follow it: every track is sent whole next time.
      expired++;
      if (change.kind === "caller.newLocation" || change.kind === "caller.trackReplaced")
        current = { ...current, lane: { ...current.lane, fullTracks: [] } };
      continue;
    }
    const planned = planForTarget(change, current);
    current = planned.target;
    steps.push({ seq: change.seq, producedAt: change.producedAt, plans: [planned] });
  }
  // The lane is written (heldFromSeq cleared) even when nothing is left to send.
  if (steps.length === 0)
    steps.push({
      seq: rows.at(-1)?.seq ?? target.heldFromSeq,
      producedAt: now,
      plans: [{ target: current, plan: { events: [], lane: current.lane } }],
    });
  const data = toPlanData(incidentId, steps);
  const planned = data ? (await writePlan(tx, data)).length : 0;
  return { incidentId, planned, expired };
}
