// Processing after answering: applies an incident's recorded, not yet processed
// deliveries to the replica, in the order they were recorded. The engine sends
// one incident's events strictly in order (Delivery rules 3), and an advisory
// lock per (receiver, incident) keeps processing in that order even when the next
// delivery is answered before the previous one was applied.
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient, Prisma } from "../platform/db/client.ts";
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { applyEvent, type Replica } from "./apply-event.ts";
import { isFlagSet, type CapabilityDeclaration } from "./capabilities.ts";
import { matchEventRoute } from "./event-routes.ts";
import { readCapabilities } from "./receiver-capabilities.ts";
import { receiverEvents } from "./receiver-events.ts";

export async function processPendingDeliveries(options: { db: DbClient; clock: Clock; integrationKey: string; incidentId: string | null }): Promise<void> {
  const { db, clock, integrationKey, incidentId } = options;
  const declaration = await readCapabilities({ db, key: integrationKey });
  const done = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`receiver:${integrationKey}:${incidentId ?? ""}`}))`;
    const pending = await tx.receiverRecord.findMany({ where: { integrationKey, incidentId, outcome: "accepted", processedAt: null }, orderBy: { id: "asc" } });
    if (pending.length === 0) return null;
    let replica = incidentId ? await loadReplica(tx, integrationKey, incidentId) : null;
    const anomalies: string[] = [];
    for (const record of pending) {
      const match = matchEventRoute(record.method, record.path)!;
      const applied = applyEvent(replica, { flag: match.route.flag, params: match.params, body: record.body, requestTimestamp: record.requestTimestamp });
      const found = [...record.anomalies, ...applied.anomalies, ...undeclared(declaration, match.route.flag)];
      replica = applied.replica;
      anomalies.push(...found);
      await tx.receiverRecord.update({
        where: { id: record.id },
        // Delivery rules 6: Test incidents are accepted and marked, never shown as real emergencies.
        data: { processedAt: clock.now(), anomalies: found, isTest: replica?.snapshot.purpose === "Test" },
      });
    }
    if (replica && incidentId) await saveReplica(tx, integrationKey, incidentId, replica, clock.now());
    return { recordIds: pending.map((r) => r.id), anomalies };
  }, { timeout: 15_000 });
  if (done) receiverEvents.emit("receiver:processed", { integrationKey, incidentId, ...done });
}

/** A route whose capability was not declared: the engine should not have called it (Endpoints rule 2). */
function undeclared(declaration: CapabilityDeclaration, flag: Parameters<typeof isFlagSet>[1]): string[] {
  // Endpoints rule 6: the whole-track PUTs after a create are sent whatever the receiver declared.
  if (flag === "caller.trackReplaced" || isFlagSet(declaration, flag)) return [];
  return [`undeclared-route:incident.${flag}`];
}

async function loadReplica(tx: Prisma.TransactionClient, integrationKey: string, incidentId: string): Promise<Replica | null> {
  const row = await tx.receiverIncident.findUnique({ where: { integrationKey_incidentId: { integrationKey, incidentId } } });
  return row ? { snapshot: row.snapshot as TIncidentSnapshotV3, fullSources: row.fullSources, closedAtUtc: row.closedAtUtc } : null;
}

async function saveReplica(tx: Prisma.TransactionClient, integrationKey: string, incidentId: string, replica: Replica, now: Date) {
  const data = { snapshot: replica.snapshot as object, purpose: replica.snapshot.purpose, fullSources: replica.fullSources, closedAtUtc: replica.closedAtUtc, updatedAt: now };
  await tx.receiverIncident.upsert({ where: { integrationKey_incidentId: { integrationKey, incidentId } }, create: { integrationKey, incidentId, ...data }, update: data });
}
