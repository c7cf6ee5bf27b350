// One transaction that applies the pending records of several (receiver, incident) pairs to their
// replicas, in record order per pair. process-deliveries.ts decides which pairs and when.
//
// On the pg pool in two round trips whatever the number of pairs (docs/decisions/0008): BEGIN, the
// pairs' advisory locks, their pending records and their declarations with their replicas leave
// together; the records' outcomes, the new track positions and the replicas go with COMMIT. The
// pending read is a statement of its own, after the locks': under READ COMMITTED it sees every record
// a previous holder processed. Measured in the default mode (caller/track, 64 incidents): one
// transaction per delivery spent three PostgreSQL round trips on each; batched, a few per batch.
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inSqlTransaction } from "../platform/db/sql-transaction.ts";
import { matchLegacyRoute } from "../webhooks/contracts/v2/routes.ts";
import { applyEvent, type Replica } from "./apply-event.ts";
import { defaultDeclaration, isFlagSet, type CapabilityDeclaration } from "./capabilities.ts";
import { matchEventRoute } from "./event-routes.ts";
import { applyLegacyEvent, isLegacySnapshot, legacyPurpose, type LegacyReplica } from "./legacy/apply-legacy-event.ts";
import { splitTracks, trackEffectOf, TrackLedger } from "./replica-storage.ts";

/** A receiver without a stored declaration declares the default (only read here: built once). */
const DEFAULT_DECLARATION = defaultDeclaration();

/** Records applied per pair in one transaction; a pair with more is taken again at once. */
export const RECORDS_PER_PAIR = 500;

export type ReceiverIncidentKey = { integrationKey: string; incidentId: string | null };
export type PairOutcome =
  { state: "busy" } | { state: "processed"; recordIds: bigint[]; anomalies: string[] } | { state: "idle" };

type PendingRecord = {
  i: string;
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
type Outcome = { id: string; anomalies: string[]; isTest: boolean };
type StoredReplica = ReturnType<typeof splitTracks> & { ik: string; inc: string };

/** Applies each pair's pending records; returns one outcome per pair, in the order given. */
export async function processRecords(db: DbClient, now: Date, pairs: ReceiverIncidentKey[]): Promise<PairOutcome[]> {
  const iks = pairs.map((p) => p.integrationKey);
  const incs = pairs.map((p) => p.incidentId);
  return inSqlTransaction(db, async (tx) => {
    const locking = tx.query<{ locked: boolean }>(Prisma.sql`
      SELECT pg_try_advisory_xact_lock(hashtext('receiver:' || ik || ':' || coalesce(inc, ''))) AS locked
      FROM unnest(${iks}::text[], ${incs}::text[]) WITH ORDINALITY AS q(ik, inc, i) ORDER BY i`);
    const reading = tx.query<PendingRecord>(Prisma.sql`
      SELECT q.i, r.id, r.method, r.path, r.body, r."requestTimestamp", r.anomalies
      FROM unnest(${iks}::text[], ${incs}::text[]) WITH ORDINALITY AS q(ik, inc, i)
      CROSS JOIN LATERAL (
        SELECT * FROM (
          SELECT id, method, path, body, "requestTimestamp", anomalies FROM "ReceiverRecord"
          WHERE "integrationKey" = q.ik AND "incidentId" = q.inc AND outcome = 'accepted' AND "processedAt" IS NULL
          UNION ALL
          SELECT id, method, path, body, "requestTimestamp", anomalies FROM "ReceiverRecord"
          WHERE q.inc IS NULL AND "integrationKey" = q.ik AND "incidentId" IS NULL AND outcome = 'accepted'
            AND "processedAt" IS NULL
        ) AS pending ORDER BY id LIMIT ${RECORDS_PER_PAIR}
      ) AS r
      ORDER BY q.i, r.id`);
    const heading = tx.query<Head>(Prisma.sql`
      SELECT (SELECT declaration FROM "ReceiverCapabilities" c WHERE c."integrationKey" = q.ik) AS declaration,
        ri.snapshot, ri."fullSources", ri."closedAtUtc", ri."trackLengths"
      FROM unnest(${iks}::text[], ${incs}::text[]) WITH ORDINALITY AS q(ik, inc, i)
      LEFT JOIN "ReceiverIncident" ri ON ri."integrationKey" = q.ik AND ri."incidentId" = q.inc
      ORDER BY q.i`);
    const [locks, records, heads] = await Promise.all([locking, reading, heading]);

    const byPair = new Map<number, PendingRecord[]>();
    for (const record of records) {
      const i = Number(record.i) - 1;
      byPair.set(i, [...(byPair.get(i) ?? []), record]);
    }
    const outcomes: Outcome[] = [];
    const replicas: StoredReplica[] = [];
    const results: PairOutcome[] = [];
    for (const [i, pair] of pairs.entries()) {
      const pending = byPair.get(i) ?? [];
      if (!locks[i]!.locked) results.push({ state: "busy" });
      else if (pending.length === 0) results.push({ state: "idle" });
      else {
        const applied = applyRecords(pair, heads[i]!, pending);
        outcomes.push(...applied.outcomes);
        if (applied.replica && pair.incidentId) {
          const deletion = applied.ledger.deletion(pair.integrationKey, pair.incidentId);
          if (deletion) await tx.execute(deletion);
          replicas.push({
            ...splitTracks(applied.replica, applied.ledger),
            ik: pair.integrationKey,
            inc: pair.incidentId,
          });
        }
        results.push({ state: "processed", recordIds: pending.map((r) => BigInt(r.id)), anomalies: applied.anomalies });
      }
    }
    if (outcomes.length > 0) tx.finish(saveProcessed(outcomes, replicas, now), () => {});
    return results;
  });
}

/** One pair's records applied in order to its replica (pure but for the ledger it fills). */
function applyRecords(pair: ReceiverIncidentKey, head: Head, records: PendingRecord[]) {
  const declaration = head.declaration ?? DEFAULT_DECLARATION;
  let replica: Replica | null =
    pair.incidentId && head.snapshot
      ? { snapshot: head.snapshot, fullSources: head.fullSources ?? [], closedAtUtc: head.closedAtUtc }
      : null;
  // The stored snapshot's tracks are empty: they gather only this batch's positions (replica-storage.ts).
  const ledger = new TrackLedger(head.trackLengths ?? {});
  const anomalies: string[] = [];
  const outcomes: Outcome[] = [];
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
  return { replica, ledger, anomalies, outcomes };
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

/**
 * The records' outcomes, the new track positions and the replicas in one statement. Replicas and
 * positions are written as JSON.stringify's text: every double kept exactly (Prisma 6.19's query
 * compiler shortened numbers in Json fields to ~15 digits, and the replica then differed from the
 * platform's snapshot; seen in server/scenarios/burst.int.test.ts). `r.id = ANY(…)` beside the join:
 * the planner cannot see how few rows jsonb_to_recordset yields, and without it scanned every record
 * (0.8 ms a delivery, growing with the table).
 */
function saveProcessed(outcomes: Outcome[], replicas: StoredReplica[], now: Date): Prisma.Sql {
  const positions = replicas.flatMap((r) => r.positions.map((p) => ({ ik: r.ik, inc: r.inc, ...p })));
  const rows = replicas.map((r) => ({
    ik: r.ik,
    inc: r.inc,
    snapshot: r.snapshot,
    purpose: purposeOf(r.snapshot as unknown as TIncidentSnapshotV3),
    fullSources: r.fullSources,
    closedAtUtc: r.closedAtUtc,
    trackLengths: r.trackLengths,
  }));
  return Prisma.sql`
    WITH marked AS (
      UPDATE "ReceiverRecord" r SET "processedAt" = ${now}::timestamptz, "isTest" = x."isTest",
        anomalies = ARRAY(SELECT jsonb_array_elements_text(x.anomalies))
      FROM jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) AS x(id bigint, anomalies jsonb, "isTest" boolean)
      WHERE r.id = x.id AND r.id = ANY(${outcomes.map((o) => o.id)}::bigint[])),
    positions AS (
      INSERT INTO "ReceiverTrackPosition" ("integrationKey", "incidentId", source, n, location)
      SELECT x.ik, x.inc, x.source, x.n, x.location
      FROM jsonb_to_recordset(${JSON.stringify(positions)}::jsonb) AS x(ik text, inc text, source text, n int, location jsonb))
    INSERT INTO "ReceiverIncident" ("integrationKey", "incidentId", snapshot, purpose, "fullSources", "closedAtUtc",
      "updatedAt", "trackLengths")
    SELECT x.ik, x.inc, x.snapshot, x.purpose, ARRAY(SELECT jsonb_array_elements_text(x."fullSources")),
      x."closedAtUtc", ${now}::timestamptz, x."trackLengths"
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS x(ik text, inc text, snapshot jsonb, purpose text, "fullSources" jsonb, "closedAtUtc" text, "trackLengths" jsonb)
    ON CONFLICT ("integrationKey", "incidentId") DO UPDATE SET snapshot = EXCLUDED.snapshot, purpose = EXCLUDED.purpose,
      "fullSources" = EXCLUDED."fullSources", "closedAtUtc" = EXCLUDED."closedAtUtc", "updatedAt" = EXCLUDED."updatedAt",
      "trackLengths" = EXCLUDED."trackLengths"`;
}
