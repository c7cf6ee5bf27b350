// Processing after answering: applies an incident's recorded, not yet processed
// deliveries to the replica, in the order they were recorded. The engine sends
// one incident's events strictly in order (Delivery rules 3), so processing must
// keep that order even when the next delivery is answered before the previous one
// was applied. One runner per (receiver, incident) at a time:
// - in this process, a second call only asks the running one to look again;
// - across processes, pg_try_advisory_xact_lock: the loser returns at once and the
//   holder re-reads pending records after each batch it commits, so nothing is left
//   behind. (A blocking advisory lock held connections while waiting: under 32
//   concurrent deliveries for one incident it starved the pool and recording stalled.)
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient, Prisma } from "../platform/db/client.ts";
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { applyEvent, type Replica } from "./apply-event.ts";
import { isFlagSet, type CapabilityDeclaration } from "./capabilities.ts";
import { matchEventRoute } from "./event-routes.ts";
import { readCapabilities } from "./receiver-capabilities.ts";
import { matchLegacyRoute } from "../webhooks/contracts/v2/routes.ts";
import { applyLegacyEvent, isLegacySnapshot, legacyPurpose, type LegacyReplica } from "./legacy/apply-legacy-event.ts";
import { receiverEvents } from "./receiver-events.ts";
import { processSingleton } from "../platform/process-singleton.ts";

type Options = { db: DbClient; clock: Clock; integrationKey: string; incidentId: string | null };

type Run = { again: boolean; done: Promise<void> };
const running = processSingleton("receiver-processing", () => new Map<string, Run>());

/**
 * Resolves once no processing runs in this process (graceful shutdown, tests):
 * closing the database under a running transaction can leave its disconnect waiting.
 */
export async function whenReceiverProcessingIdle(): Promise<void> {
  // Processing starts when a response has gone out: give those callbacks a turn first.
  await new Promise((resolve) => setImmediate(resolve));
  while (running.size > 0) {
    await Promise.allSettled([...running.values()].map((r) => r.done));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function processPendingDeliveries(options: Options): Promise<void> {
  const runKey = `${options.integrationKey}\u0000${options.incidentId ?? ""}`;
  const current = running.get(runKey);
  if (current) {
    current.again = true;
    return;
  }
  const state: Run = { again: false, done: Promise.resolve() };
  state.done = (async () => {
    try {
      for (;;) {
        state.again = false;
        const processed = await processBatch(options);
        if (processed === "busy") break; // another process holds it and will re-read
        if (processed === 0 && !state.again) break;
      }
    } finally {
      running.delete(runKey);
    }
  })();
  running.set(runKey, state);
  return state.done;
}

async function processBatch(options: Options): Promise<number | "busy"> {
  const { db, clock, integrationKey, incidentId } = options;
  const declaration = await readCapabilities({ db, key: integrationKey });
  const done = await db.$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<
        Array<{ locked: boolean }>
      >`SELECT pg_try_advisory_xact_lock(hashtext(${`receiver:${integrationKey}:${incidentId ?? ""}`})) AS locked`;
      if (!lock!.locked) return "busy" as const;
      const pending = await tx.receiverRecord.findMany({
        where: { integrationKey, incidentId, outcome: "accepted", processedAt: null },
        orderBy: { id: "asc" },
        take: 500,
      });
      if (pending.length === 0) return null;
      let replica = incidentId ? await loadReplica(tx, integrationKey, incidentId) : null;
      const anomalies: string[] = [];
      for (const record of pending) {
        // Issue 8: a v1/v2 delivery applies to the legacy replica (receiver/legacy).
        const legacy = matchLegacyRoute(record.method, record.path);
        const match = legacy ? null : matchEventRoute(record.method, record.path)!;
        const applied = legacy
          ? (applyLegacyEvent(replica as unknown as LegacyReplica | null, {
              key: legacy.key,
              body: record.body,
            }) as unknown as ReturnType<typeof applyEvent>)
          : applyEvent(replica, {
              flag: match!.route.flag,
              params: match!.params,
              body: record.body,
              requestTimestamp: record.requestTimestamp,
            });
        const found = [
          ...record.anomalies,
          ...applied.anomalies,
          ...(match ? undeclared(declaration, match.route.flag) : []),
        ];
        replica = applied.replica;
        anomalies.push(...found);
        await tx.receiverRecord.update({
          where: { id: record.id },
          // Delivery rules 6: Test incidents are accepted and marked, never shown as real emergencies.
          data: {
            processedAt: clock.now(),
            anomalies: found,
            isTest: replica ? purposeOf(replica.snapshot) === "Test" : false,
          },
        });
      }
      if (replica && incidentId) await saveReplica(tx, integrationKey, incidentId, replica, clock.now());
      return { recordIds: pending.map((r) => r.id), anomalies };
    },
    { timeout: 15_000 },
  );
  if (done === "busy") return "busy";
  if (!done) return 0;
  receiverEvents.emit("receiver:processed", { integrationKey, incidentId, ...done });
  return done.recordIds.length;
}

/** A route whose capability was not declared: the engine should not have called it (Endpoints rule 2). */
function undeclared(declaration: CapabilityDeclaration, flag: Parameters<typeof isFlagSet>[1]): string[] {
  // Endpoints rule 6: the whole-track PUTs after a create are sent whatever the receiver declared.
  if (flag === "caller.trackReplaced" || isFlagSet(declaration, flag)) return [];
  return [`undeclared-route:incident.${flag}`];
}

async function loadReplica(
  tx: Prisma.TransactionClient,
  integrationKey: string,
  incidentId: string,
): Promise<Replica | null> {
  const row = await tx.receiverIncident.findUnique({
    where: { integrationKey_incidentId: { integrationKey, incidentId } },
  });
  return row
    ? { snapshot: row.snapshot as TIncidentSnapshotV3, fullSources: row.fullSources, closedAtUtc: row.closedAtUtc }
    : null;
}

/**
 * Raw SQL, not a model upsert: Prisma 6.19's query compiler writes Json fields with
 * numbers shortened to ~15 significant digits (0.1 + 0.2 is stored as 0.3, a
 * latitude 59.971000000000004 as 59.971), so the replica differed from the platform
 * snapshot in positions the platform had kept exactly (seen in the concurrent-appends
 * scenario, server/scenarios/burst.int.test.ts). JSON.stringify keeps every double.
 */
async function saveReplica(
  tx: Prisma.TransactionClient,
  integrationKey: string,
  incidentId: string,
  replica: Replica,
  now: Date,
) {
  await tx.$executeRaw`
    INSERT INTO "ReceiverIncident" ("integrationKey", "incidentId", snapshot, purpose, "fullSources", "closedAtUtc", "updatedAt")
    VALUES (${integrationKey}, ${incidentId}, ${JSON.stringify(replica.snapshot)}::jsonb, ${purposeOf(replica.snapshot)}, ${replica.fullSources}::text[], ${replica.closedAtUtc}, ${now}::timestamptz)
    ON CONFLICT ("integrationKey", "incidentId") DO UPDATE SET snapshot = EXCLUDED.snapshot, purpose = EXCLUDED.purpose,
      "fullSources" = EXCLUDED."fullSources", "closedAtUtc" = EXCLUDED."closedAtUtc", "updatedAt" = EXCLUDED."updatedAt"`;
}

/** v3 replicas carry purpose; v1/v2 ones only isTest (issue 8). */
function purposeOf(snapshot: TIncidentSnapshotV3): string {
  return isLegacySnapshot(snapshot) ? legacyPurpose(snapshot) : snapshot.purpose;
}
