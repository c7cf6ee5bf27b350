// Recording a request durably, before answering (spec, Delivery rules 4: "answer
// 200 as soon as the delivery is durably recorded and process afterwards").
// Deduplication on Service-Request-Id is the unique index (integrationKey,
// dedupeKey): a retry is not recorded again, only counted on the first record.
// Records are kept until a seed reset, well beyond the one hour the spec requires.
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
import { processSingleton } from "../platform/process-singleton.ts";
import { receiverEvents } from "./receiver-events.ts";

/** The first key of the two-key advisory locks that order an incident's records (its own lock space). */
const RECORD_LOCK_SPACE = 7_301;

export type RecordInput = {
  integrationKey: string;
  method: string;
  path: string;
  route: string | null;
  incidentId: string | null;
  serviceRequestId: string | null;
  requestTimestamp: string | null;
  body: unknown;
  status: number;
  outcome: "accepted" | "rejected-token" | "fault";
  detail?: string | null;
  anomalies?: string[];
  isTest?: boolean;
};

/** Returns the record's id and whether it was a duplicate of an earlier accepted delivery. */
export function recordDelivery(options: {
  db: DbClient;
  clock: Clock;
  input: RecordInput;
}): Promise<{ id: bigint; duplicate: boolean }> {
  return new Promise((resolve, reject) => {
    const batcher = batchers.get(options.db) ?? new RecordBatcher(options.db, options.clock);
    batchers.set(options.db, batcher);
    batcher.add({ input: options.input, resolve, reject });
  });
}

type Pending = {
  input: RecordInput;
  resolve: (recorded: { id: bigint; duplicate: boolean }) => void;
  reject: (error: unknown) => void;
};

/** One batcher per database client (tests run several workbenches in one process). */
const batchers = processSingleton("receiver-record-batchers", () => new WeakMap<DbClient, RecordBatcher>());

/**
 * Deliveries that arrive while a statement is in flight are recorded together by the next one: one
 * round trip for the burst, where a statement each cost a PostgreSQL round trip per delivery (the
 * largest share left of the embedded receiver's cost in the default mode). A record is still durable
 * before its delivery is answered: each waits for the commit of the statement that holds it.
 */
class RecordBatcher {
  private waiting: Pending[] = [];
  private busy = false;
  constructor(
    private readonly db: DbClient,
    private readonly clock: Clock,
  ) {}

  add(pending: Pending) {
    this.waiting.push(pending);
    if (!this.busy) this.flush();
  }

  private flush() {
    // A retry can race its original: two accepted records with one Service-Request-Id cannot share a
    // statement (ON CONFLICT touches a row once), so the later one waits for the next.
    const batch: Pending[] = [];
    const rest: Pending[] = [];
    const keys = new Set<string>();
    for (const p of this.waiting) {
      const key = dedupeKeyOf(p.input);
      const tag = key === null ? null : `${p.input.integrationKey}\u0000${key}`;
      if (tag !== null && keys.has(tag)) rest.push(p);
      else {
        if (tag !== null) keys.add(tag);
        batch.push(p);
      }
    }
    this.waiting = rest;
    if (batch.length === 0) return;
    this.busy = true;
    void this.write(batch).finally(() => {
      this.busy = false;
      if (this.waiting.length > 0) this.flush();
    });
  }

  private async write(batch: Pending[]) {
    let rows: Array<{ id: string; duplicates: number }>;
    try {
      rows = await sqlQuery(
        this.db,
        insertRecords(
          batch.map((p) => p.input),
          this.clock.now(),
        ),
      );
      if (rows.length !== batch.length) throw new Error(`recorded ${rows.length} of ${batch.length} deliveries`);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    for (const [i, p] of batch.entries()) {
      const id = BigInt(rows[i]!.id);
      const duplicate = rows[i]!.duplicates > 0;
      receiverEvents.emit("receiver:recorded", {
        integrationKey: p.input.integrationKey,
        recordId: id,
        outcome: p.input.outcome,
        status: p.input.status,
        duplicate,
      });
      p.resolve({ id, duplicate });
    }
  }
}

/** Only accepted deliveries take part in dedupe: a refused or faulted attempt was never accepted, so its retry must be. */
const dedupeKeyOf = (input: RecordInput) => (input.outcome === "accepted" ? input.serviceRequestId : null);

/**
 * Records of one incident are numbered in the order they commit: the statement takes a lock per
 * (integration, incident), in key order so that two statements never wait for each other, before its
 * rows get their ids, and holds them until it commits. Without it two concurrent deliveries could
 * commit out of id order, and processing (which reads the pending records in id order) could apply a
 * later record before an earlier one it could not see yet. The locks are taken in an InitPlan, which
 * runs before the first row is inserted; rows are inserted, and returned, in the batch's order.
 */
function insertRecords(inputs: RecordInput[], now: Date): Prisma.Sql {
  const rows = inputs.map((input, ord) => ({
    ord,
    integrationKey: input.integrationKey,
    dedupeKey: dedupeKeyOf(input),
    serviceRequestId: input.serviceRequestId,
    requestTimestamp: input.requestTimestamp,
    method: input.method,
    path: input.path,
    route: input.route,
    incidentId: input.incidentId,
    body: input.body === undefined ? null : input.body,
    status: input.status,
    outcome: input.outcome,
    detail: input.detail ?? null,
    anomalies: input.anomalies ?? [],
    isTest: input.isTest ?? false,
  }));
  const lockKeys = [...new Set(inputs.map((i) => `${i.integrationKey}:${i.incidentId ?? ""}`))].sort();
  // The body goes in as JSON.stringify's text inside the batch: every double kept exactly.
  return Prisma.sql`
    INSERT INTO "ReceiverRecord" ("integrationKey", "dedupeKey", "serviceRequestId", "requestTimestamp", "method", "path",
      "route", "incidentId", "body", "receivedAt", "status", "outcome", "detail", "anomalies", "isTest")
    SELECT x."integrationKey", x."dedupeKey", x."serviceRequestId", x."requestTimestamp", x.method, x.path, x.route,
      x."incidentId", x.body, ${now}::timestamptz, x.status, x.outcome, x.detail,
      ARRAY(SELECT jsonb_array_elements_text(x.anomalies)), x."isTest"
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(ord int, "integrationKey" text, "dedupeKey" text,
      "serviceRequestId" text, "requestTimestamp" text, method text, path text, route text, "incidentId" text, body jsonb,
      status int, outcome text, detail text, anomalies jsonb, "isTest" boolean)
    WHERE (SELECT count(*) FROM (
      SELECT pg_advisory_xact_lock(${RECORD_LOCK_SPACE}::int, hashtext(k))
      FROM (SELECT k FROM unnest(${lockKeys}::text[]) AS k ORDER BY k) AS sorted) AS per_incident_order) >= 0
    ORDER BY x.ord
    ON CONFLICT ("integrationKey", "dedupeKey") DO UPDATE
      SET "duplicates" = "ReceiverRecord"."duplicates" + 1, "lastDuplicateAt" = EXCLUDED."receivedAt"
    RETURNING "id", "duplicates"`;
}
