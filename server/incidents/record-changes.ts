// Writes the incident's new state and its change records (seq lastSeq+1 …) in
// the caller's transaction. Shared by applyIncidentChange and incident creation.
//
// Why one raw statement: the hot path (POST …/caller/track) was measured at
// ~9 ms per Prisma updateMany + createMany pair with the snapshot passed twice
// through the query compiler; one CTE sends the snapshot once, as a bound
// jsonb parameter, in one round trip.
import type { Prisma } from "../platform/db/client.ts";
import type { IncidentChange, IncidentChangeKind } from "./change-record.ts";
import type { IncidentState } from "./incident-state.ts";

export async function recordChanges(options: {
  tx: Prisma.TransactionClient;
  incident: IncidentState;
  kinds: IncidentChangeKind[];
  now: Date;
  actor: string;
  /** Creation inserts the row itself; only the records are written. */
  created?: boolean;
}): Promise<IncidentChange[]> {
  const { tx, incident, kinds, now, actor } = options;
  const firstSeq = incident.lastSeq + 1;
  incident.lastSeq += kinds.length;
  if (!options.created) incident.version += 1;
  const changes: IncidentChange[] = kinds.map((k, i) => ({ ...k, incidentId: incident.id, seq: firstSeq + i, producedAt: now, actor, snapshot: incident.snapshot }));
  const records = JSON.stringify(changes.map(({ incidentId, seq, producedAt, actor: a, snapshot, kind, ...payload }) => ({ seq, kind, payload })));
  const snapshot = JSON.stringify(incident.snapshot);
  if (options.created) {
    await tx.$executeRaw`
      INSERT INTO "IncidentChange" ("incidentId", seq, kind, payload, "producedAt", actor, snapshot)
      SELECT ${incident.id}::uuid, c.seq, c.kind, c.payload, ${now}::timestamptz, ${actor}, ${snapshot}::jsonb
      FROM jsonb_to_recordset(${records}::jsonb) AS c(seq int, kind text, payload jsonb)`;
    return changes;
  }
  await tx.$executeRaw`
    WITH s AS (SELECT ${snapshot}::jsonb AS snap),
    u AS (
      UPDATE "Incident" SET version = ${incident.version}, "lastSeq" = ${incident.lastSeq}, snapshot = (SELECT snap FROM s),
        internal = ${JSON.stringify(incident.internal)}::jsonb, "closedAt" = ${incident.closedAt}::timestamptz, "liveVideoEndsAt" = ${incident.liveVideoEndsAt}::timestamptz
      WHERE id = ${incident.id}::uuid
    )
    INSERT INTO "IncidentChange" ("incidentId", seq, kind, payload, "producedAt", actor, snapshot)
    SELECT ${incident.id}::uuid, c.seq, c.kind, c.payload, ${now}::timestamptz, ${actor}, (SELECT snap FROM s)
    FROM jsonb_to_recordset(${records}::jsonb) AS c(seq int, kind text, payload jsonb)`;
  return changes;
}
