// Writes the incident's new state and its change records (seq lastSeq+1 …) in
// the caller's transaction. Shared by applyIncidentChange and incident creation.
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
  if (!options.created) {
    incident.version += 1;
    await tx.incident.updateMany({
      where: { id: incident.id },
      data: {
        version: incident.version, lastSeq: incident.lastSeq, snapshot: incident.snapshot, internal: incident.internal,
        closedAt: incident.closedAt, liveVideoEndsAt: incident.liveVideoEndsAt,
      },
    });
  }
  const changes: IncidentChange[] = kinds.map((k, i) => ({ ...k, incidentId: incident.id, seq: firstSeq + i, producedAt: now, actor, snapshot: incident.snapshot }));
  await tx.incidentChange.createMany({
    data: changes.map(({ incidentId, seq, producedAt, actor: a, snapshot, kind, ...payload }) => ({ incidentId, seq, kind, payload, producedAt, actor: a, snapshot })),
  });
  return changes;
}
