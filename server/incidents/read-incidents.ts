// A change's first statement: the incidents it touches, read with the acting
// agency's involvement and every change subscriber's prefetch (the webhook lanes).
import { Prisma } from "../platform/db/client.ts";
import type { SqlTx } from "../platform/db/sql-transaction.ts";
import { changeSubscribers } from "./change-record.ts";
import type { CollaborationState, IncidentState } from "./incident-state.ts";

type ReadRow = Omit<IncidentState, "collaboration"> & {
  collaboration: CollaborationState | null;
  planEpoch: number;
  seenEpoch: number;
  prefetched: unknown[];
  readXmin: string;
  planningVersion: string;
};
export type ReadIncident = IncidentState & {
  prefetched?: unknown[];
  readXmin?: string;
  /** The planning version the prefetch was read under (optimistic reads; migration planning_version). */
  planningVersion?: string;
};

/** The version of the planner's inputs outside the incident row (migration planning_version); a missing row reads as 0. */
export const planningVersionSql = Prisma.sql`coalesce((SELECT pv.n FROM "PlanningVersion" pv WHERE pv.id = 1), 0)`;

/**
 * Incidents with the acting agency's involvement and every change subscriber's
 * prefetch (the webhook lanes), in one statement; results in the order asked
 * (undefined: no such incident). Either locked (one incident, SELECT … FOR
 * UPDATE, in its transaction), or as of the statement's snapshot, with each
 * row's xmin, which the optimistic write must still find.
 *
 * Locked, the prefetch subqueries read with the statement's snapshot; when the
 * lock had to wait for a concurrent writer, the row comes back in its newest
 * version (READ COMMITTED re-check) but the subqueries do not. Every lane
 * writer bumps "planEpoch" under this lock, so an epoch that differs from the
 * one the snapshot saw means the prefetched values may be stale: they are
 * dropped and each subscriber reads again inside the lock (one more round
 * trip, only then). Unlocked, row and subqueries share one snapshot (no epoch
 * to compare: the row is read once), and any later writer of the row (a lane
 * writer too) moves its xmin.
 * The snapshot comes in its stored form: tracks are empty placeholders, filled
 * only when a subscriber asks (lazy tracks, track-storage.ts), by a statement
 * of their own, which sees every committed position.
 */
export async function readIncidents(
  tx: SqlTx,
  wanted: Array<{ incidentId: string; agencyId: string | undefined }>,
  lock: boolean,
): Promise<Array<ReadIncident | undefined>> {
  const prefetches = changeSubscribers().map((s) => s.prefetch?.(Prisma.raw("inc.id")) ?? Prisma.sql`NULL`);
  const rows = await tx.query<ReadRow & { n: number }>(Prisma.sql`
    SELECT q.n, inc.id::text AS id, inc."ownerAgencyId"::text AS "ownerAgencyId", inc."createdByAgencyId"::text AS "createdByAgencyId",
           inc."routingMode"::text AS "routingMode", inc.purpose::text AS purpose, inc.version, inc."lastSeq", inc."closedAt",
           inc."liveVideoEndsAt", inc.snapshot, inc.internal, ia.collaboration::text AS collaboration, inc."planEpoch", inc.xmin::text AS "readXmin",
           ${planningVersionSql}::text AS "planningVersion",
           ${lock ? Prisma.sql`(SELECT x."planEpoch" FROM "Incident" x WHERE x.id = inc.id)` : Prisma.sql`inc."planEpoch"`} AS "seenEpoch",
           ${prefetches.length ? Prisma.sql`jsonb_build_array(${Prisma.join(prefetches)})` : Prisma.sql`'[]'::jsonb`} AS prefetched
    FROM unnest(${wanted.map((w) => w.incidentId)}::uuid[], ${wanted.map((w) => w.agencyId ?? null)}::uuid[]) WITH ORDINALITY AS q(id, "agencyId", n)
    JOIN "Incident" inc ON inc.id = q.id
    LEFT JOIN "IncidentAgency" ia ON ia."incidentId" = inc.id AND ia."agencyId" = q."agencyId"
    ${lock ? Prisma.sql`FOR UPDATE OF inc` : Prisma.empty}`);
  const found: Array<ReadIncident | undefined> = wanted.map(() => undefined);
  for (const { n, planEpoch, seenEpoch, prefetched, readXmin, planningVersion, ...incident } of rows) {
    found[Number(n) - 1] = {
      ...incident,
      prefetched: planEpoch === seenEpoch ? prefetched : undefined,
      readXmin: lock ? undefined : readXmin,
      planningVersion: lock ? undefined : planningVersion,
    };
  }
  return found;
}
