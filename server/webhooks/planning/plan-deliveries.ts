// The change subscriber: plans an incident change's deliveries into the outbox
// inside the change's own transaction (transactional outbox, HOUSE-STYLE habit
// 10), so a change and its deliveries commit or roll back together.
import { randomUUID } from "node:crypto";
import { Prisma } from "../../platform/db/client.ts";
import type { ChangeSubscriber, IncidentChange } from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { webhookEvents } from "../webhook-events.ts";
import { loadPlanningTargets, type PlanningTarget } from "./load-targets.ts";
import { planEvents, planIntroduction, type Plan } from "./plan-events.ts";
import { selectRecipientAgencies } from "./select-recipients.ts";

export const OUTBOX_CHANNEL = "webhook_outbox";

type Tx = Prisma.TransactionClient;
export type PlannedRow = { id: bigint; requestId: string; integrationKey: string; incidentId: string; method: string; path: string; eventName: string };

/** The subscriber registered with subscribeToChanges at start-up. */
export const planDeliveriesOnChange: ChangeSubscriber = async (tx, change) => {
  await planDeliveries(tx, change);
};

export async function planDeliveries(tx: Tx, change: IncidentChange): Promise<PlannedRow[]> {
  await saveLatestSnapshot(tx, change.incidentId, change.seq, change.snapshot, change.producedAt);
  const targets = await loadPlanningTargets(tx, { incidentId: change.incidentId, agencyIds: selectRecipientAgencies(change) });
  const plans = targets.map((target) => ({ target, plan: planEvents({ change, flags: target.flags, lane: target.lane }) }));
  return writePlans(tx, { incidentId: change.incidentId, seq: change.seq, producedAt: change.producedAt, plans });
}

/** Rule 5: after an outage, re-send the incident's create-and-track sequence (to one integration or all). */
export async function planResend(tx: Tx, options: { incidentId: string; integrationKey?: string; now: Date }): Promise<PlannedRow[]> {
  const stored = await tx.webhookIncidentSnapshot.findUnique({ where: { incidentId: options.incidentId } });
  if (!stored) return [];
  const snapshot = stored.snapshot as TIncidentSnapshotV3;
  const agencyIds = snapshot.involvedAgencies.filter((a) => a.collaboration !== "Declined").map((a) => a.id);
  const targets = await loadPlanningTargets(tx, { incidentId: options.incidentId, agencyIds, integrationKey: options.integrationKey });
  const plans = targets.map((target) => ({ target, plan: planIntroduction(snapshot, target.flags) }));
  return writePlans(tx, { incidentId: options.incidentId, seq: stored.seq, producedAt: options.now, plans });
}

async function saveLatestSnapshot(tx: Tx, incidentId: string, seq: number, snapshot: TIncidentSnapshotV3, at: Date) {
  const json = snapshot as unknown as Prisma.InputJsonValue;
  await tx.webhookIncidentSnapshot.upsert({
    where: { incidentId },
    create: { incidentId, seq, snapshot: json, updatedAt: at },
    update: { seq, snapshot: json, updatedAt: at },
  });
}

async function writePlans(tx: Tx, options: { incidentId: string; seq: number; producedAt: Date; plans: Array<{ target: PlanningTarget; plan: Plan }> }): Promise<PlannedRow[]> {
  const { incidentId, seq, producedAt } = options;
  const data = options.plans.flatMap(({ target, plan }) =>
    plan.events.map((e) => ({
      requestId: randomUUID(), integrationKey: target.integrationKey, agencyId: target.agencyId, incidentId, changeSeq: seq,
      eventName: e.route === "changed" ? `changed (${e.standsFor})` : e.route,
      method: e.method, path: e.path, body: e.body === null ? Prisma.DbNull : (e.body as Prisma.InputJsonValue),
      producedAt, nextAttemptAt: producedAt,
    })),
  );
  for (const { target, plan } of options.plans) {
    await tx.webhookLane.upsert({
      where: { integrationKey_incidentId: { integrationKey: target.integrationKey, incidentId } },
      create: { integrationKey: target.integrationKey, incidentId, introduced: plan.lane.introduced, fullTracks: plan.lane.fullTracks, updatedAt: producedAt },
      update: { introduced: plan.lane.introduced, fullTracks: plan.lane.fullTracks, updatedAt: producedAt },
    });
  }
  if (!data.length) return [];
  // One multi-row INSERT: ids (the lane order) follow the plan's order.
  const rows = await tx.webhookDelivery.createManyAndReturn({
    data,
    select: { id: true, requestId: true, integrationKey: true, incidentId: true, method: true, path: true, eventName: true },
  });
  // Delivered to LISTENing workers (every process) when this transaction commits.
  await tx.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
  const events = webhookEvents();
  for (const r of rows) events.emit("delivery:planned", { ...r, deliveryId: r.id.toString() });
  events.emit("outbox:wake");
  return rows;
}
