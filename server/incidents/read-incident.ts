// Reads one incident (no lock) with an agency's involvement: for repeats, the
// dashboard and the portal pages. One statement, so the row and its assembled
// snapshot (tracks from IncidentPosition, track-storage.ts) are one moment's.
import { Prisma } from "../platform/db/client.ts";
import type { Db } from "./db-handle.ts";
import { isUuid } from "./db-handle.ts";
import type { IncidentState } from "./incident-state.ts";
import { currentSnapshotSql } from "./track-storage.ts";

export async function readIncident(options: {
  db: Db;
  incidentId: string;
  agencyId?: string;
}): Promise<IncidentState | undefined> {
  const { db, incidentId, agencyId } = options;
  if (!isUuid(incidentId)) return undefined;
  const [row] = await db.$queryRaw<IncidentState[]>(Prisma.sql`
    SELECT i.id::text AS id, i."ownerAgencyId"::text AS "ownerAgencyId", i."createdByAgencyId"::text AS "createdByAgencyId",
           i."routingMode"::text AS "routingMode", i.purpose::text AS purpose, i.version, i."lastSeq", i."closedAt", i."liveVideoEndsAt",
           ${currentSnapshotSql("i")} AS snapshot, i.internal, ia.collaboration::text AS collaboration
    FROM "Incident" i
    LEFT JOIN "IncidentAgency" ia ON ia."incidentId" = i.id AND ia."agencyId" = ${agencyId && isUuid(agencyId) ? agencyId : null}::uuid
    WHERE i.id = ${incidentId}::uuid`);
  return row;
}
