// One transaction that applies the pending records of several (receiver, incident) pairs to their
// replicas, in record order per pair. process-deliveries.ts decides which pairs and when.
//
// On the pg pool in two round trips whatever the number of pairs (docs/decisions/0008): BEGIN, the
// pairs' advisory locks, their pending records and their declarations with their replicas leave
// together; the pairs' progress, the records' anomalies, the new track positions and the replicas go
// with COMMIT. The pending read is a statement of its own, after the locks': under READ COMMITTED it
// sees every record and every progress a previous holder committed. Measured in the default mode
// (caller/track, 64 incidents): one transaction per delivery spent three PostgreSQL round trips on
// each; batched, a few per batch.
//
// A pair's pending records are its accepted ones above its ReceiverProgress mark: an incident's
// records get their ids in the order they commit (record-delivery.ts), so none can appear below the
// mark later (docs/decisions/0044). A record is written again only when applying it found more to
// show: anomalies, or a Test mark other than the one it was recorded with.
import type { TIncidentSnapshotV3 } from "../incidents/snapshot.schema.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inSqlTransaction } from "../platform/db/sql-transaction.ts";
import { EventLoopSlices } from "../platform/event-loop-slices.ts";
import { matchLegacyRoute } from "../webhook-contracts/v2/routes.ts";
import { applyEventInPlace, type Applied, type Replica } from "./apply-event.ts";
import { defaultDeclaration, isFlagSet, type CapabilityDeclaration } from "./capabilities.ts";
import { matchEventRoute } from "./event-routes.ts";
import { applyLegacyEvent, isLegacySnapshot, legacyPurpose, type LegacyReplica } from "./legacy/apply-legacy-event.ts";
import { incidentKeyOf } from "./receiver-progress.ts";
import { splitTracks, trackEffectOf, TrackLedger } from "./replica-storage.ts";

/** A receiver without a stored declaration declares the default (only read here: built once). */
const DEFAULT_DECLARATION = defaultDeclaration();

/** Records applied per pair in one transaction; a pair with more is taken again at once. */
export const RECORDS_PER_PAIR = 500;

/**
 * How long applying records holds the event loop before letting it run what waits (ms). Applied in
 * one go, receiver-delivery's batches of creates held it for 10–33 ms at a time, and every answer
 * due meanwhile waited; sliced, the processing transaction just stays open a little longer.
 */
const APPLY_SLICE_MS = 4;

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
  /** As recorded: a create's own purpose. */
  isTest: boolean;
};
type Head = {
  declaration: CapabilityDeclaration | null;
  snapshot: TIncidentSnapshotV3 | null;
  fullSources: string[] | null;
  closedAtUtc: string | null;
  trackLengths: Record<string, number> | null;
};
/** A record that has more to show once applied: anomalies found, or its incident's Test mark. */
type Outcome = { id: string; anomalies: string[]; isTest: boolean };
/** A pair's last applied record (ReceiverProgress; `inc` is "" for records without an incident). */
type Progress = { ik: string; inc: string; through: string };
type StoredReplica = ReturnType<typeof splitTracks> & { ik: string; inc: string };

/**
 * Applies each pair's pending records; returns one outcome per pair, in the order given. `slices`
 * cut the apply loop (tests give their own; by default the first starts with the loop).
 */
export async function processRecords(
  db: DbClient,
  now: Date,
  pairs: ReceiverIncidentKey[],
  options: { slices?: EventLoopSlices } = {},
): Promise<PairOutcome[]> {
  const iks = pairs.map((p) => p.integrationKey);
  const incs = pairs.map((p) => p.incidentId);
  return inSqlTransaction(db, async (tx) => {
    // Planned for each batch (this transaction only): a connection's cached generic plan, made while
    // the receiver had few records, read the pending ones through the dedupe index and filtered every
    // record of the receiver, 20–200 ms a batch once there were tens of thousands (auto_explain under
    // inbound-track); planned with the batch's own values and current statistics, the read takes the
    // (integrationKey, incidentId, id) range above each mark.
    const planning = tx.query(Prisma.sql`SELECT set_config('plan_cache_mode', 'force_custom_plan', true)`);
    const locking = tx.query<{ locked: boolean }>(Prisma.sql`
      SELECT pg_try_advisory_xact_lock(hashtext('receiver:' || ik || ':' || coalesce(inc, ''))) AS locked
      FROM unnest(${iks}::text[], ${incs}::text[]) WITH ORDINALITY AS q(ik, inc, i) ORDER BY i`);
    const reading = tx.query<PendingRecord>(Prisma.sql`
      SELECT q.i, r.id, r.method, r.path, r.body, r."requestTimestamp", r.anomalies, r."isTest"
      FROM unnest(${iks}::text[], ${incs}::text[]) WITH ORDINALITY AS q(ik, inc, i)
      CROSS JOIN LATERAL (
        SELECT COALESCE((SELECT p."processedThrough" FROM "ReceiverProgress" p
          WHERE p."integrationKey" = q.ik AND p."incidentKey" = COALESCE(q.inc, '')), 0) AS through
      ) AS mark
      CROSS JOIN LATERAL (
        SELECT * FROM (
          SELECT id, method, path, body, "requestTimestamp", anomalies, "isTest", outcome FROM "ReceiverRecord"
          WHERE "integrationKey" = q.ik AND "incidentId" = q.inc AND id > mark.through
          UNION ALL
          SELECT id, method, path, body, "requestTimestamp", anomalies, "isTest", outcome FROM "ReceiverRecord"
          WHERE q.inc IS NULL AND "integrationKey" = q.ik AND "incidentId" IS NULL AND id > mark.through
        ) AS pending WHERE outcome = 'accepted' ORDER BY id LIMIT ${RECORDS_PER_PAIR}
      ) AS r
      ORDER BY q.i, r.id`);
    const heading = tx.query<Head>(Prisma.sql`
      SELECT (SELECT declaration FROM "ReceiverCapabilities" c WHERE c."integrationKey" = q.ik) AS declaration,
        ri.snapshot, ri."fullSources", ri."closedAtUtc", ri."trackLengths"
      FROM unnest(${iks}::text[], ${incs}::text[]) WITH ORDINALITY AS q(ik, inc, i)
      LEFT JOIN "ReceiverIncident" ri ON ri."integrationKey" = q.ik AND ri."incidentId" = q.inc
      ORDER BY q.i`);
    const [, locks, records, heads] = await Promise.all([planning, locking, reading, heading]);

    const byPair = new Map<number, PendingRecord[]>();
    for (const record of records) {
      const i = Number(record.i) - 1;
      const pending = byPair.get(i);
      if (pending) pending.push(record);
      else byPair.set(i, [record]);
    }
    const outcomes: Outcome[] = [];
    const progress: Progress[] = [];
    const replicas: StoredReplica[] = [];
    const results: PairOutcome[] = [];
    const slices = options.slices ?? new EventLoopSlices(APPLY_SLICE_MS);
    for (const [i, pair] of pairs.entries()) {
      const pending = byPair.get(i) ?? [];
      if (!locks[i]!.locked) results.push({ state: "busy" });
      else if (pending.length === 0) results.push({ state: "idle" });
      else {
        const applied = await applyRecords(pair, heads[i]!, pending, slices);
        outcomes.push(...applied.outcomes);
        progress.push({ ik: pair.integrationKey, inc: incidentKeyOf(pair.incidentId), through: pending.at(-1)!.id });
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
    if (progress.length > 0) tx.finish(saveProcessed(progress, outcomes, replicas, now), () => {});
    return results;
  });
}

/** One pair's records applied in order to its replica (pure but for the ledger it fills), in slices. */
async function applyRecords(pair: ReceiverIncidentKey, head: Head, records: PendingRecord[], slices: EventLoopSlices) {
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
    if (slices.spent) await slices.next();
    // A v1/v2 delivery applies to the legacy replica (reference-receiver/legacy).
    const legacy = matchLegacyRoute(record.method, record.path);
    const match = legacy ? null : matchEventRoute(record.method, record.path)!;
    // The replica is this batch's own (parsed from its row, or built by a create): v3 events change
    // it in place; a v1/v2 one returns a new replica when it changes it.
    const applied = legacy
      ? applyLegacy(replica, legacy.key, record.body)
      : applyEventInPlace(replica, {
          flag: match!.route.flag,
          params: match!.params,
          body: record.body,
          requestTimestamp: record.requestTimestamp,
        });
    const found = [
      ...record.anomalies,
      ...applied.anomalies,
      ...(match ? undeclared(declaration, match.route.flagPath) : []),
    ];
    if (applied.changed)
      ledger.record(trackEffectOf(legacy ? { legacyKey: legacy.key } : { flag: match!.route.flag }, record.body));
    replica = applied.replica;
    anomalies.push(...found);
    // Delivery rules 6: Test incidents are accepted and marked, never shown as real emergencies.
    const isTest = replica ? purposeOf(replica.snapshot) === "Test" : false;
    if (isTest !== record.isTest || found.length > record.anomalies.length)
      outcomes.push({ id: record.id, anomalies: found, isTest });
  }
  return { replica, ledger, anomalies, outcomes };
}

/** A v1/v2 event applied to the legacy replica: a new one when it changes it (apply-legacy-event.ts). */
function applyLegacy(
  replica: Replica | null,
  key: Parameters<typeof applyLegacyEvent>[1]["key"],
  body: unknown,
): Applied & { changed: boolean } {
  const applied = applyLegacyEvent(replica as unknown as LegacyReplica | null, { key, body });
  return { ...(applied as unknown as Applied), changed: applied.replica !== (replica as unknown) };
}

/** A route whose capability was not declared: the engine should not have called it (Endpoints rule 2). */
function undeclared(declaration: CapabilityDeclaration, flag: Parameters<typeof isFlagSet>[1]): string[] {
  // Endpoints rule 6: the whole-track PUTs after a create are sent whatever the receiver declared.
  if (flag === "caller.trackReplaced" || isFlagSet(declaration, flag)) return [];
  return [`undeclared-route:incident.${flag}`];
}

/** v3 replicas carry purpose; v1/v2 ones only isTest (Delivery rule 6). */
function purposeOf(snapshot: TIncidentSnapshotV3): string {
  return isLegacySnapshot(snapshot) ? legacyPurpose(snapshot) : snapshot.purpose;
}

/**
 * The pairs' progress, the records' outcomes, the new track positions and the replicas in one
 * statement; a pair's mark only moves up (a later batch of another process never sees less). Replicas and
 * positions are written as JSON.stringify's text: every double kept exactly (Prisma 6.19's query
 * compiler shortened numbers in Json fields to ~15 digits, and the replica then differed from the
 * platform's snapshot; seen in server/whole-chain/burst.int.test.ts). `r.id = ANY(…)` beside the join:
 * the planner cannot see how few rows jsonb_to_recordset yields, and without it scanned every record
 * (0.8 ms a delivery, growing with the table).
 */
function saveProcessed(progress: Progress[], outcomes: Outcome[], replicas: StoredReplica[], now: Date): Prisma.Sql {
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
    WITH progressed AS (
      INSERT INTO "ReceiverProgress" ("integrationKey", "incidentKey", "processedThrough")
      SELECT x.ik, x.inc, x.through FROM jsonb_to_recordset(${JSON.stringify(progress)}::jsonb) AS x(ik text, inc text, through bigint)
      ON CONFLICT ("integrationKey", "incidentKey") DO UPDATE
        SET "processedThrough" = GREATEST("ReceiverProgress"."processedThrough", EXCLUDED."processedThrough")),
    marked AS (
      UPDATE "ReceiverRecord" r SET "isTest" = x."isTest", anomalies = ARRAY(SELECT jsonb_array_elements_text(x.anomalies))
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
