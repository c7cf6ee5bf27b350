// Recording a request durably, before answering (spec, Delivery rules 4: "answer
// 200 as soon as the delivery is durably recorded and process afterwards").
// Deduplication on Service-Request-Id is the unique index (integrationKey,
// dedupeKey): a retry is not recorded again, only counted on the first record.
// Records are kept until a seed reset, well beyond the one hour the spec requires.
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
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
export async function recordDelivery(options: {
  db: DbClient;
  clock: Clock;
  input: RecordInput;
}): Promise<{ id: bigint; duplicate: boolean }> {
  const { db, clock, input } = options;
  // Only accepted deliveries take part in dedupe: a refused or faulted attempt was never accepted, so its retry must be.
  const dedupeKey = input.outcome === "accepted" ? input.serviceRequestId : null;
  const body = input.body === undefined ? null : JSON.stringify(input.body);
  // Records of one incident are numbered in the order they commit: the statement takes a lock per
  // (integration, incident) before its row gets an id, and holds it until it commits. Without it two
  // concurrent deliveries could commit out of id order, and processing (which reads the pending records
  // in id order) could apply a later record before an earlier one it could not see yet.
  // On the pg pool, not Prisma: a statement per delivery (docs/decisions/0008).
  const [row] = await sqlQuery<{ id: string; duplicates: number }>(
    db,
    Prisma.sql`
    INSERT INTO "ReceiverRecord" ("integrationKey", "dedupeKey", "serviceRequestId", "requestTimestamp", "method", "path", "route",
      "incidentId", "body", "receivedAt", "status", "outcome", "detail", "anomalies", "isTest")
    SELECT ${input.integrationKey}::text, ${dedupeKey}::text, ${input.serviceRequestId}::text, ${input.requestTimestamp}::text,
      ${input.method}::text, ${input.path}::text, ${input.route}::text, ${input.incidentId}::text, ${body}::jsonb,
      ${clock.now()}::timestamptz, ${input.status}::int, ${input.outcome}::text, ${input.detail ?? null}::text,
      ${input.anomalies ?? []}::text[], ${input.isTest ?? false}::boolean
    FROM (SELECT pg_advisory_xact_lock(${RECORD_LOCK_SPACE}::int, hashtext(${`${input.integrationKey}:${input.incidentId ?? ""}`}))) AS per_incident_order
    ON CONFLICT ("integrationKey", "dedupeKey") DO UPDATE
      SET "duplicates" = "ReceiverRecord"."duplicates" + 1, "lastDuplicateAt" = EXCLUDED."receivedAt"
    RETURNING "id", "duplicates"`,
  );
  const id = BigInt(row!.id);
  const duplicate = row!.duplicates > 0;
  receiverEvents.emit("receiver:recorded", {
    integrationKey: input.integrationKey,
    recordId: id,
    outcome: input.outcome,
    status: input.status,
    duplicate,
  });
  return { id, duplicate };
}
