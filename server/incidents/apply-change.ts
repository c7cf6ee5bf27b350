// The one function through which an existing incident changes. In one
// transaction it locks the incident row, checks access and state, lets the
// caller mutate a copy of the snapshot, bumps the version, writes one
// IncidentChange per change (next seq) and hands each to the subscribers
// (change-record.ts) — so a change, its record and its planned deliveries
// commit or roll back together. The row lock serializes writers of one
// incident: no update is ever lost, and seq follows commit order.
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inSqlTransaction, type SqlTx } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import { changeSubscribers, type IncidentChange, type IncidentChangeKind } from "./change-record.ts";
import { isUuid } from "./db-handle.ts";
import { canAct, parseIfMatch, type CollaborationState, type IncidentState } from "./incident-state.ts";
import { buildChanges, planSubscribers, writeChanges } from "./record-changes.ts";
import { fillTracks, markTracks, trackDelta } from "./track-storage.ts";

export type MutationContext = { tx: SqlTx; incident: IncidentState; now: Date };
export type MutationOutcome<R> = {
  changes: IncidentChangeKind[];
  result: R;
  /** Column updates beside the snapshot (undefined: unchanged). */
  liveVideoEndsAt?: Date | null;
  closedAt?: Date;
  /** Only `incident.internal` changed (never delivered): saved without a version bump or change record. */
  internalChanged?: boolean;
};

export type ApplyChangeOptions<R> = {
  db: DbClient;
  clock: Clock;
  incidentId: string;
  /** "inbound:<clientId>", "simulator", "system", … */
  actor: string;
  /** Inbound access: the agency must act on the incident (Owner/Accepted), or — `anyInvolvement` — merely be involved (to resolve an invitation). Otherwise 404. */
  access?: { agencyId: string; anyInvolvement?: boolean };
  /** The request's If-Match header, raw. */
  ifMatch?: string;
  /** Mutates `incident.snapshot` / `incident.internal` in place (a private copy) and names the changes; throws AppError for a refused transition. */
  mutate: (ctx: MutationContext) => MutationOutcome<R> | Promise<MutationOutcome<R>>;
};

/** `incident.snapshot`'s tracks are lazy (track-storage.ts): whole only if a subscriber filled them; read the incident again for its tracks. */
export type AppliedChange<R> = { result: R; version: number; incident: IncidentState; changes: IncidentChange[] };

export const incidentNotFound = () => new AppError("IncidentNotFound", 404, "No incident with that ID is accessible to the token's agency.");

export async function applyIncidentChange<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R>> {
  const { incidentId, access } = options;
  if (!isUuid(incidentId) || (access && !isUuid(access.agencyId))) throw incidentNotFound();
  return inSqlTransaction(options.db, async (tx) => {
    const locked = await lockIncident(tx, incidentId, access?.agencyId);
    if (!locked) throw incidentNotFound();
    const { prefetched, ...incident } = locked;
    const marks = markTracks(incident.snapshot);
    if (access && !(access.anyInvolvement ? incident.collaboration !== null : canAct(incident.collaboration))) throw incidentNotFound();
    if (incident.closedAt) throw new AppError("IncidentClosed", 409, "The incident is closed and accepts no change.");
    checkIfMatch(options.ifMatch, incident.version);

    const now = options.clock.now();
    const outcome = await options.mutate({ tx, incident, now });
    if (outcome.closedAt) incident.closedAt = outcome.closedAt;
    if (outcome.liveVideoEndsAt !== undefined) incident.liveVideoEndsAt = outcome.liveVideoEndsAt;
    if (outcome.changes.length === 0) {
      if (outcome.internalChanged) await tx.execute(Prisma.sql`UPDATE "Incident" SET internal = ${JSON.stringify(incident.internal)}::jsonb WHERE id = ${incident.id}::uuid`);
      return { result: outcome.result, version: incident.version, incident, changes: [] };
    }

    const delta = trackDelta(incident.snapshot.caller.tracks, marks);
    const changes = buildChanges({ incident, kinds: outcome.changes, now, actor: options.actor });
    let filled: Promise<void> | undefined;
    const fullTracks = () => (filled ??= fillTracks(tx, incident.id, incident.snapshot, marks));
    const writes = await planSubscribers(tx, changes, prefetched, fullTracks);
    await writeChanges({ tx, incident, changes, writes, delta });
    return { result: outcome.result, version: incident.version, incident, changes };
  });
}

function checkIfMatch(header: string | undefined, version: number) {
  const parsed = parseIfMatch(header);
  if (!parsed || "any" in parsed) return;
  if (!parsed.versions.includes(version)) {
    throw new AppError("UpdateConflict", 409, `The incident changed since that ETag was read; its current ETag is "${version}". Read it again and retry.`);
  }
}

type LockedRow = Omit<IncidentState, "collaboration"> & { collaboration: CollaborationState | null; planEpoch: number; seenEpoch: number; prefetched: unknown[] };

/**
 * SELECT … FOR UPDATE OF the incident, with the acting agency's involvement and
 * every change subscriber's prefetch (the webhook lanes) in the same round trip.
 *
 * The prefetch subqueries read with the statement's snapshot; when the lock had
 * to wait for a concurrent writer, the row comes back in its newest version
 * (READ COMMITTED re-check) but the subqueries do not. Every lane writer bumps
 * "planEpoch" under this lock, so an epoch that differs from the one the
 * snapshot saw means the prefetched values may be stale: they are dropped and
 * each subscriber reads again inside the lock (one more round trip, only then).
 * The snapshot comes in its stored form: tracks are empty placeholders, filled
 * only when a subscriber asks (lazy tracks, track-storage.ts), by a statement
 * of their own, which sees every committed position.
 */
async function lockIncident(tx: SqlTx, incidentId: string, agencyId: string | undefined): Promise<(IncidentState & { prefetched?: unknown[] }) | undefined> {
  const prefetches = changeSubscribers().map((s) => s.prefetch?.(incidentId) ?? Prisma.sql`NULL`);
  const [row] = await tx.query<LockedRow>(Prisma.sql`
    SELECT i.id::text AS id, i."ownerAgencyId"::text AS "ownerAgencyId", i."createdByAgencyId"::text AS "createdByAgencyId",
           i."routingMode"::text AS "routingMode", i.purpose::text AS purpose, i.version, i."lastSeq", i."closedAt",
           i."liveVideoEndsAt", i.snapshot, i.internal, ia.collaboration::text AS collaboration, i."planEpoch",
           (SELECT x."planEpoch" FROM "Incident" x WHERE x.id = ${incidentId}::uuid) AS "seenEpoch",
           ${prefetches.length ? Prisma.sql`jsonb_build_array(${Prisma.join(prefetches)})` : Prisma.sql`'[]'::jsonb`} AS prefetched
    FROM "Incident" i
    LEFT JOIN "IncidentAgency" ia ON ia."incidentId" = i.id AND ia."agencyId" = ${agencyId ?? null}::uuid
    WHERE i.id = ${incidentId}::uuid
    FOR UPDATE OF i`);
  if (!row) return undefined;
  const { planEpoch, seenEpoch, prefetched, ...incident } = row;
  return { ...incident, prefetched: planEpoch === seenEpoch ? prefetched : undefined };
}
