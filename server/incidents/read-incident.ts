// Reads one incident (no lock) with an agency's involvement: for repeats, the
// dashboard and the portal pages.
import type { Db } from "./db-handle.ts";
import { isUuid } from "./db-handle.ts";
import type { IncidentState } from "./incident-state.ts";

export async function readIncident(options: { db: Db; incidentId: string; agencyId?: string }): Promise<IncidentState | undefined> {
  const { db, incidentId, agencyId } = options;
  if (!isUuid(incidentId)) return undefined;
  const row = await db.incident.findUnique({
    where: { id: incidentId },
    include: { agencies: agencyId && isUuid(agencyId) ? { where: { agencyId } } : false },
  });
  if (!row) return undefined;
  return {
    id: row.id, ownerAgencyId: row.ownerAgencyId, createdByAgencyId: row.createdByAgencyId, routingMode: row.routingMode, purpose: row.purpose,
    version: row.version, lastSeq: row.lastSeq, closedAt: row.closedAt, liveVideoEndsAt: row.liveVideoEndsAt,
    snapshot: row.snapshot as IncidentState["snapshot"], internal: row.internal as IncidentState["internal"],
    collaboration: (row.agencies as Array<{ collaboration: IncidentState["collaboration"] }> | undefined)?.[0]?.collaboration ?? null,
  };
}
