// Processing after answering: applies an incident's recorded, not yet processed
// deliveries to the replica, in the order they were recorded. The engine sends
// one incident's events strictly in order (Delivery rules 3), so processing must
// keep that order even when the next delivery is answered before the previous one
// was applied. One runner per (receiver, incident) at a time:
// - in this process, a second call only asks the running one to look again;
// - across processes, pg_try_advisory_xact_lock: the loser holds no connection while
//   it waits and tries again shortly; once it has the lock it reads what is still
//   pending, so a record committed while another process held the lock is never left
//   behind. (A blocking advisory lock held connections while waiting: under 32
//   concurrent deliveries for one incident it starved the pool and recording stalled.)
//   The holder does not read again after its batch: that second, nearly always empty
//   transaction was a third of processing's PostgreSQL time in the default mode.
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inSqlTransaction } from "../platform/db/sql-transaction.ts";
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { applyEvent, type Replica } from "./apply-event.ts";
import { defaultDeclaration, isFlagSet, type CapabilityDeclaration } from "./capabilities.ts";
import { matchEventRoute } from "./event-routes.ts";
import { matchLegacyRoute } from "../webhooks/contracts/v2/routes.ts";
import { applyLegacyEvent, isLegacySnapshot, legacyPurpose, type LegacyReplica } from "./legacy/apply-legacy-event.ts";
import { receiverEvents } from "./receiver-events.ts";
import { splitTracks, trackEffectOf, TrackLedger } from "./replica-storage.ts";
import { processSingleton } from "../platform/process-singleton.ts";

type Options = { db: DbClient; clock: Clock; integrationKey: string; incidentId: string | null };

type Run = { again: boolean; done: Promise<void> };
const BATCH_SIZE = 500;
/** Waiting for another process's batch: 25 ms apart, for at most 10 s (a batch takes milliseconds). */
const BUSY_RETRY_MS = 25;
const BUSY_RETRIES = 400;
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
      for (let busy = 0; ;) {
        state.again = false;
        const processed = await processBatch(options);
        if (processed === "busy") {
          // Another process is applying this incident's records; it gives the lock up within a batch.
          if (++busy > BUSY_RETRIES) break;
          await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
          continue;
        }
        if (processed < BATCH_SIZE && !state.again) break;
      }
    } finally {
      running.delete(runKey);
    }
  })();
  running.set(runKey, state);
  return state.done;
}

type PendingRecord = {
  id: string;
  method: string;
  path: string;
  body: unknown;
  requestTimestamp: string | null;
  anomalies: string[];
};
type Head = {
  declaration: CapabilityDeclaration | null;
  snapshot: TIncidentSnapshotV3 | null;
  fullSources: string[] | null;
  closedAtUtc: string | null;
  trackLengths: Record<string, number> | null;
};

/**
 * One batch in one transaction on the pg pool (docs/decisions/0008), in two round trips: BEGIN, the
 * lock, the pending records and the declaration with the replica leave together; the records'
 * outcomes and the replica go with COMMIT. The pending read is a statement of its own, after the
 * lock's: under READ COMMITTED it then sees every record a previous holder processed.
 */
async function processBatch(options: Options): Promise<number | "busy"> {
  const { db, clock, integrationKey, incidentId } = options;
  const lockKey = `receiver:${integrationKey}:${incidentId ?? ""}`;
  const done = await inSqlTransaction(db, async (tx) => {
    const locked = tx.query<{ locked: boolean }>(
      Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtext(${lockKey})) AS locked`,
    );
    const pending = tx.query<PendingRecord>(Prisma.sql`
      SELECT id, method, path, body, "requestTimestamp", anomalies FROM "ReceiverRecord"
      WHERE "integrationKey" = ${integrationKey} AND ${incidentId === null ? Prisma.sql`"incidentId" IS NULL` : Prisma.sql`"incidentId" = ${incidentId}`}
        AND outcome = 'accepted' AND "processedAt" IS NULL
      ORDER BY id LIMIT ${BATCH_SIZE}`);
    const head = tx.query<Head>(Prisma.sql`
      SELECT (SELECT declaration FROM "ReceiverCapabilities" WHERE "integrationKey" = ${integrationKey}) AS declaration,
        ri.snapshot, ri."fullSources", ri."closedAtUtc", ri."trackLengths"
      FROM (SELECT 1) AS one
      LEFT JOIN "ReceiverIncident" ri ON ri."integrationKey" = ${integrationKey} AND ri."incidentId" = ${incidentId}`);
    const [[lock], records, [row]] = await Promise.all([locked, pending, head]);
    if (!lock!.locked) return "busy" as const;
    if (records.length === 0) return null;
    const declaration = row!.declaration ?? defaultDeclaration();
    let replica: Replica | null =
      incidentId && row!.snapshot
        ? { snapshot: row!.snapshot, fullSources: row!.fullSources ?? [], closedAtUtc: row!.closedAtUtc }
        : null;
    // The stored snapshot's tracks are empty: they gather only this batch's positions (replica-storage.ts).
    const ledger = new TrackLedger(row!.trackLengths ?? {});
    const anomalies: string[] = [];
    const outcomes: Array<{ id: string; anomalies: string[]; isTest: boolean }> = [];
    for (const record of records) {
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
      if (applied.replica !== replica)
        ledger.record(trackEffectOf(legacy ? { legacyKey: legacy.key } : { flag: match!.route.flag }, record.body));
      replica = applied.replica;
      anomalies.push(...found);
      // Delivery rules 6: Test incidents are accepted and marked, never shown as real emergencies.
      outcomes.push({
        id: record.id,
        anomalies: found,
        isTest: replica ? purposeOf(replica.snapshot) === "Test" : false,
      });
    }
    const deletion = replica && incidentId ? ledger.deletion(integrationKey, incidentId) : null;
    if (deletion) await tx.execute(deletion);
    const stored = replica && incidentId ? splitTracks(replica, ledger) : null;
    tx.finish(saveOutcomes(integrationKey, incidentId, outcomes, stored, clock.now()), () => {});
    return { recordIds: records.map((r) => BigInt(r.id)), anomalies };
  });
  if (done === "busy") return "busy";
  if (!done) return 0;
  receiverEvents.emit("receiver:processed", { integrationKey, incidentId, ...done });
  return done.recordIds.length;
}

/**
 * The records' outcomes, the new track positions and the replica in one statement. The replica and
 * the positions are written as JSON.stringify's text: every double kept exactly (Prisma 6.19's query
 * compiler shortened numbers in Json fields to ~15 digits, and the replica then differed from the
 * platform's snapshot; seen in server/scenarios/burst.int.test.ts).
 */
function saveOutcomes(
  integrationKey: string,
  incidentId: string | null,
  outcomes: Array<{ id: string; anomalies: string[]; isTest: boolean }>,
  stored: ReturnType<typeof splitTracks> | null,
  now: Date,
): Prisma.Sql {
  // `r.id = ANY(…)` beside the join: the planner cannot see how few rows jsonb_to_recordset yields, and
  // without it chose to scan every record (0.8 ms a delivery, growing with the table).
  const marked = Prisma.sql`
    UPDATE "ReceiverRecord" r SET "processedAt" = ${now}::timestamptz, "isTest" = x."isTest",
      anomalies = ARRAY(SELECT jsonb_array_elements_text(x.anomalies))
    FROM jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) AS x(id bigint, anomalies jsonb, "isTest" boolean)
    WHERE r.id = x.id AND r.id = ANY(${outcomes.map((o) => o.id)}::bigint[])`;
  if (!stored || !incidentId) return marked;
  const snapshot = stored.snapshot as unknown as TIncidentSnapshotV3;
  return Prisma.sql`
    WITH marked AS (${marked}),
    positions AS (
      INSERT INTO "ReceiverTrackPosition" ("integrationKey", "incidentId", source, n, location)
      SELECT ${integrationKey}, ${incidentId}, x.source, x.n, x.location
      FROM jsonb_to_recordset(${JSON.stringify(stored.positions)}::jsonb) AS x(source text, n int, location jsonb))
    INSERT INTO "ReceiverIncident" ("integrationKey", "incidentId", snapshot, purpose, "fullSources", "closedAtUtc",
      "updatedAt", "trackLengths")
    VALUES (${integrationKey}, ${incidentId}, ${JSON.stringify(snapshot)}::jsonb, ${purposeOf(snapshot)},
      ${stored.fullSources}::text[], ${stored.closedAtUtc}, ${now}::timestamptz, ${JSON.stringify(stored.trackLengths)}::jsonb)
    ON CONFLICT ("integrationKey", "incidentId") DO UPDATE SET snapshot = EXCLUDED.snapshot, purpose = EXCLUDED.purpose,
      "fullSources" = EXCLUDED."fullSources", "closedAtUtc" = EXCLUDED."closedAtUtc", "updatedAt" = EXCLUDED."updatedAt",
      "trackLengths" = EXCLUDED."trackLengths"`;
}

/** A route whose capability was not declared: the engine should not have called it (Endpoints rule 2). */
function undeclared(declaration: CapabilityDeclaration, flag: Parameters<typeof isFlagSet>[1]): string[] {
  // Endpoints rule 6: the whole-track PUTs after a create are sent whatever the receiver declared.
  if (flag === "caller.trackReplaced" || isFlagSet(declaration, flag)) return [];
  return [`undeclared-route:incident.${flag}`];
}

/** v3 replicas carry purpose; v1/v2 ones only isTest (issue 8). */
function purposeOf(snapshot: TIncidentSnapshotV3): string {
  return isLegacySnapshot(snapshot) ? legacyPurpose(snapshot) : snapshot.purpose;
}
