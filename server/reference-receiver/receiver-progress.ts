// How far processing has applied an embedded receiver's records. Each (receiver, incident) pair keeps
// the id of the last accepted record applied (ReceiverProgress, written by process-records.ts): an
// accepted record is applied exactly when its id is at or below its pair's mark (docs/decisions/0044).
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";

/** A pair's key in ReceiverProgress: records without an incident share "". */
export const incidentKeyOf = (incidentId: string | null) => incidentId ?? "";

/** Each pair's mark, keyed `${incidentKey}` (absent: nothing applied yet). */
export async function processedThrough(db: DbClient, integrationKey: string, incidentIds: Array<string | null>) {
  const rows = await db.receiverProgress.findMany({
    where: { integrationKey, incidentKey: { in: [...new Set(incidentIds.map(incidentKeyOf))] } },
  });
  return new Map(rows.map((r) => [r.incidentKey, r.processedThrough]));
}

/**
 * Accepted records not applied to their replicas yet, of one receiver and some incidents, or of all
 * (tests wait for none; benches report the catch-up). Reads every record in its scope.
 */
export async function unprocessedRecordCount(
  db: DbClient,
  scope: { integrationKey?: string; incidentIds?: string[] } = {},
): Promise<number> {
  const [row] = await sqlQuery<{ n: number }>(
    db,
    Prisma.sql`
      SELECT count(*)::int AS n FROM "ReceiverRecord" r
      LEFT JOIN "ReceiverProgress" p
        ON p."integrationKey" = r."integrationKey" AND p."incidentKey" = COALESCE(r."incidentId", '')
      WHERE r.outcome = 'accepted' AND r.id > COALESCE(p."processedThrough", 0)
        AND (${scope.integrationKey ?? null}::text IS NULL OR r."integrationKey" = ${scope.integrationKey ?? null}::text)
        AND (${scope.incidentIds ?? null}::text[] IS NULL OR r."incidentId" = ANY(${scope.incidentIds ?? null}::text[]))`,
  );
  return row!.n;
}
