// The receivers of one incident inside the planning transaction: each
// recipient agency's integration, its last accepted capabilities and its lane,
// in ONE query (measured: the three Prisma reads this replaces cost ~4 ms of
// CPU per change in the query compiler; the planner runs in every change's
// transaction, so it is on the hot path of the inbound API).
import { Prisma } from "../../platform/db/client.ts";
import type { SqlTx } from "../../platform/db/sql-transaction.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { laneForMajor } from "./legacy-lane.ts";
import { NEW_LANE, type LaneState } from "./plan-events.ts";

export type StoredLane = { introduced: boolean; fullTracks: string[]; heldFromSeq: number | null };
export type PlanningTarget = {
  integrationKey: string;
  agencyId: string;
  /**
   * No accepted /about declaration (never discovered, rejected, unreachable from the start):
   * nothing is planned against a guess; the lane's changes wait, unplanned (heldFromSeq), and are
   * planned against the declaration the receiver makes once it is accepted (plan-held-changes.ts).
   */
  held: boolean;
  flags: ReadonlySet<V3Flag>;
  lane: LaneState;
  /** Contract major (Versioning rule 3): 3, or legacy 1/2; 3 while held (unused). */ major: 1 | 2 | 3;
  /** The lane's first held change, if any: while set, every later change is held too (order). */
  heldFromSeq: number | null;
  /** The lane's row as read (null: none yet; absent: unknown). The planner writes a lane only when its plan changed it. */
  stored?: StoredLane | null;
};

type Row = {
  key: string;
  agencyId: string;
  status: string | null;
  majorVersion: number | null;
  flags: string[] | null;
  introduced: boolean | null;
  fullTracks: string[] | null;
  heldFromSeq: number | null;
};

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
      'rows', coalesce(jsonb_agg(jsonb_build_object('key', i.key, 'agencyId', i."agencyId"::text, 'status', c.status,
        'majorVersion', c."majorVersion", 'flags', c.flags, 'introduced', l.introduced, 'fullTracks', l."fullTracks", 'heldFromSeq', l."heldFromSeq") ORDER BY i.key), '[]'::jsonb))
    FROM "IncidentAgency" ia
    JOIN "Integration" i ON i."agencyId" = ia."agencyId"
    LEFT JOIN "WebhookCapabilities" c ON c."integrationKey" = i.key
    LEFT JOIN "WebhookLane" l ON l."integrationKey" = i.key AND l."incidentId" = ia."incidentId"
    WHERE ia."incidentId" = ${incidentId})`;
}

export async function loadPlanningTargets(
  tx: SqlTx,
  options: { incidentId: string; agencyIds: string[]; integrationKey?: string },
): Promise<PlanningTarget[]> {
  if (!options.agencyIds.length) return [];
  const rows = await tx.query<Row>(Prisma.sql`
    SELECT i.key, i."agencyId"::text AS "agencyId", c.status, c."majorVersion", c.flags, l.introduced, l."fullTracks", l."heldFromSeq"
    FROM "Integration" i
    LEFT JOIN "WebhookCapabilities" c ON c."integrationKey" = i.key
    LEFT JOIN "WebhookLane" l ON l."integrationKey" = i.key AND l."incidentId" = ${options.incidentId}::uuid
    WHERE i."agencyId" = ANY(${options.agencyIds}::uuid[]) AND (${options.integrationKey ?? null}::text IS NULL OR i.key = ${options.integrationKey ?? null}::text)
    ORDER BY i.key`);
  return toPlanningTargets(rows);
}

export function toPlanningTargets(rows: Row[]): PlanningTarget[] {
  return rows.map((r) => {
    const stored =
      r.introduced === null
        ? null
        : { introduced: r.introduced, fullTracks: r.fullTracks ?? [], heldFromSeq: r.heldFromSeq ?? null };
    const major = acceptedMajor(r);
    const base = { integrationKey: r.key, agencyId: r.agencyId, heldFromSeq: stored?.heldFromSeq ?? null, stored };
    if (major === null) return { ...base, held: true, flags: NO_FLAGS, lane: NEW_LANE, major: 3 };
    // A lane planned under another major version (a cutover) starts anew (legacy-lane.ts).
    return {
      ...base,
      held: false,
      flags: new Set((r.flags ?? []) as V3Flag[]),
      lane: stored ? laneForMajor(stored, major) : NEW_LANE,
      major,
    };
  });
}

const NO_FLAGS: ReadonlySet<V3Flag> = new Set();

/**
 * The major version of an accepted declaration (Versioning rule 3: the version /about declares,
 * no separate configuration), or null when there is none to plan against. An /about that became
 * unreachable keeps its earlier accepted declaration (discover-integration.ts keeps it "active").
 */
function acceptedMajor(r: Row): 1 | 2 | 3 | null {
  if (r.status !== "active") return null;
  const major = r.majorVersion;
  if (major !== 1 && major !== 2 && major !== 3) return null;
  // A v3 declaration is accepted only with incident.created or incident.changed (rule 1).
  if (major === 3 && !(r.flags ?? []).some((f) => f === "incident.created" || f === "incident.changed")) return null;
  return major;
}

/**
 * One lane's target under the incident's row lock, for work on a lane outside a change (a held
 * lane planned, a lane cut over). `planEpoch` moves, so a change that read the lane before this
 * commits plans again (apply-change.ts). Null: no such incident or integration, or no target.
 */
export async function lockLaneTarget(
  tx: SqlTx,
  options: { integrationKey: string; incidentId: string },
): Promise<PlanningTarget | null> {
  const { integrationKey, incidentId } = options;
  const [locked] = await tx.query<{ id: string }>(
    Prisma.sql`UPDATE "Incident" SET "planEpoch" = "planEpoch" + 1 WHERE id = ${incidentId}::uuid RETURNING id::text`,
  );
  if (!locked) return null;
  const [integration] = await tx.query<{ agencyId: string }>(
    Prisma.sql`SELECT "agencyId"::text AS "agencyId" FROM "Integration" WHERE key = ${integrationKey}`,
  );
  if (!integration) return null;
  const [target] = await loadPlanningTargets(tx, { incidentId, agencyIds: [integration.agencyId], integrationKey });
  return target ?? null;
}
