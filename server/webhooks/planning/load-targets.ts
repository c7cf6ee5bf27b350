// The receivers of one incident inside the planning transaction: each
// recipient agency's integration, its last accepted capabilities and its lane,
// in ONE query (measured: the three Prisma reads this replaces cost ~4 ms of
// CPU per change in the query compiler; the planner runs in every change's
// transaction, so it is on the hot path of the inbound API).
import { Prisma } from "../../platform/db/client.ts";
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import type { V3Flag } from "../contracts/v3/capabilities.schema.ts";
import { laneForMajor } from "./legacy-lane.ts";
import { NEW_LANE, type LaneState } from "./plan-events.ts";

export type StoredLane = { introduced: boolean; fullTracks: string[] };
export type PlanningTarget = {
  integrationKey: string; agencyId: string; flags: ReadonlySet<V3Flag>; lane: LaneState; /** Contract major (issue 8): 3, or legacy 1/2. */ major: 1 | 2 | 3;
  /** The lane's row as read (null: none yet; absent: unknown). The planner writes a lane only when its plan changed it. */
  stored?: StoredLane | null;
};

/**
 * Decision (documented in the AsyncAPI document): until an integration's /about
 * has been accepted once, events are planned for the minimal generic shape
 * (incident.created + incident.changed); they wait in the queue (up to their
 * hour) until discovery accepts the receiver. Integrations whose declared or
 * configured major version is 1 or 2 are planned by the legacy planner (issue 8); any other major gets nothing.
 */
export const UNDISCOVERED_FLAGS: ReadonlySet<V3Flag> = new Set(["incident.created", "incident.changed"]);

type Row = { key: string; agencyId: string; contractVersion: number; status: string | null; majorVersion: number | null; flags: string[] | null; introduced: boolean | null; fullTracks: string[] | null };

/** What prefetchPlanningTargets reads: the integrations of every agency involved in the incident (any collaboration state). */
export type PrefetchedTargets = { agencyIds: string[]; rows: Row[] };

/**
 * The same read as loadPlanningTargets, as a scalar jsonb subquery for the
 * aggregate's read statement (one round trip less per change), over the read
 * row's id (an SQL expression). It covers the
 * agencies involved before the change; a change that involves another one
 * (an invitation) makes the planner read that agency's integration itself.
 */
export function prefetchPlanningTargets(incidentId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT jsonb_build_object(
      'agencyIds', (SELECT coalesce(jsonb_agg(ia."agencyId"::text), '[]'::jsonb) FROM "IncidentAgency" ia WHERE ia."incidentId" = ${incidentId}),
      'rows', coalesce(jsonb_agg(jsonb_build_object('key', i.key, 'agencyId', i."agencyId"::text, 'contractVersion', i."contractVersion", 'status', c.status,
        'majorVersion', c."majorVersion", 'flags', c.flags, 'introduced', l.introduced, 'fullTracks', l."fullTracks") ORDER BY i.key), '[]'::jsonb))
    FROM "IncidentAgency" ia
    JOIN "Integration" i ON i."agencyId" = ia."agencyId"
    LEFT JOIN "WebhookCapabilities" c ON c."integrationKey" = i.key
    LEFT JOIN "WebhookLane" l ON l."integrationKey" = i.key AND l."incidentId" = ia."incidentId"
    WHERE ia."incidentId" = ${incidentId})`;
}

export async function loadPlanningTargets(tx: SqlTx, options: { incidentId: string; agencyIds: string[]; integrationKey?: string }): Promise<PlanningTarget[]> {
  if (!options.agencyIds.length) return [];
  const rows = await tx.query<Row>(Prisma.sql`
    SELECT i.key, i."agencyId"::text AS "agencyId", i."contractVersion", c.status, c."majorVersion", c.flags, l.introduced, l."fullTracks"
    FROM "Integration" i
    LEFT JOIN "WebhookCapabilities" c ON c."integrationKey" = i.key
    LEFT JOIN "WebhookLane" l ON l."integrationKey" = i.key AND l."incidentId" = ${options.incidentId}::uuid
    WHERE i."agencyId" = ANY(${options.agencyIds}::uuid[]) AND (${options.integrationKey ?? null}::text IS NULL OR i.key = ${options.integrationKey ?? null}::text)
    ORDER BY i.key`);
  return toPlanningTargets(rows);
}

export function toPlanningTargets(rows: Row[]): PlanningTarget[] {
  const targets: PlanningTarget[] = [];
  for (const r of rows) {
    const major = r.majorVersion ?? r.contractVersion;
    if (major !== 1 && major !== 2 && major !== 3) continue;
    const accepted = r.flags && r.flags.length > 0 && r.status !== "rejected";
    const stored = r.introduced === null ? null : { introduced: r.introduced, fullTracks: r.fullTracks ?? [] };
    targets.push({
      integrationKey: r.key,
      agencyId: r.agencyId,
      flags: accepted ? new Set(r.flags as V3Flag[]) : UNDISCOVERED_FLAGS,
      // Issue 8: a lane planned under another major version (a cutover) starts anew (legacy-lane.ts).
      lane: stored ? laneForMajor(stored, major) : NEW_LANE,
      major,
      stored,
    });
  }
  return targets;
}
