// The one function through which an existing incident changes: it checks
// access and state, lets the caller mutate a copy of the snapshot, bumps the
// version, writes one IncidentChange per change (next seq) and hands them to
// the subscribers (change-record.ts), so a change, its records and its planned
// deliveries commit or roll back together; seq follows commit order and no
// update is ever lost.
//
// Two ways to get there, the same steps in both (applyOnce):
// - optimistic, first: a plain read, then ONE auto-committed statement that
//   applies only if the incident's version and planEpoch are still the ones
//   read (a compare-and-set; the subscribers' CTEs join its `applied` row).
//   Two round trips and no BEGIN/COMMIT: each round trip costs the hot path a
//   socket write and a wake-up of the database backend (measured: socket
//   writes were 27% of the inbound API's CPU with four).
// - locked, when the compare-and-set found a concurrent writer, or when the
//   mutation needs the transaction itself (an invitation writes
//   IncidentAgency): SELECT … FOR UPDATE, then the same write, in one
//   transaction; writers of one incident queue on the row lock.
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inSqlTransaction, sqlQuery, type SqlTx } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import { changeSubscribers, type IncidentChange, type IncidentChangeKind } from "./change-record.ts";
import { isUuid } from "./db-handle.ts";
import { canAct, parseIfMatch, type CollaborationState, type IncidentState } from "./incident-state.ts";
import { buildChanges, planSubscribers, writeChanges } from "./record-changes.ts";

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

export type AppliedChange<R> = { result: R; version: number; incident: IncidentState; changes: IncidentChange[] };

export const incidentNotFound = () => new AppError("IncidentNotFound", 404, "No incident with that ID is accessible to the token's agency.");

export async function applyIncidentChange<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R>> {
  const { incidentId, access } = options;
  if (!isUuid(incidentId) || (access && !isUuid(access.agencyId))) throw incidentNotFound();
  const optimistic = await applyOptimistically(options);
  if (optimistic) return optimistic;
  return inSqlTransaction(options.db, async (tx) => {
    const applied = await applyOnce(options, tx, tx, await readIncidentForChange(tx, incidentId, access?.agencyId, "lock"));
    return applied!; // under the row lock the compare-and-set always holds
  });
}

/** Null when the mutation needs a transaction, or another writer came first: then the locked path runs. */
async function applyOptimistically<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R> | null> {
  const { db } = options;
  const autocommit: SqlTx = { query: (s) => sqlQuery(db, s), execute: async (s) => (await sqlQuery(db, s)).length, afterCommit: (f) => committed.push(f) };
  const committed: Array<() => void> = [];
  // A mutation that reads or writes through its tx must run inside the locked transaction.
  const refuse = () => { throw NEEDS_TRANSACTION; };
  const noTransaction: SqlTx = { query: refuse, execute: refuse, afterCommit: refuse };
  try {
    const read = await readIncidentForChange(autocommit, options.incidentId, options.access?.agencyId, "read");
    const applied = await applyOnce(options, noTransaction, autocommit, read);
    if (applied) for (const f of committed) f();
    return applied;
  } catch (error) {
    if (error === NEEDS_TRANSACTION) return null;
    throw error;
  }
}

const NEEDS_TRANSACTION = Symbol("needs the locked transaction");

/**
 * The steps shared by both paths. `mutationTx` is what the mutation may use;
 * `tx` runs the aggregate's own statements. Null when the compare-and-set
 * found the incident changed since `read` (only possible on the optimistic path).
 */
async function applyOnce<R>(options: ApplyChangeOptions<R>, mutationTx: SqlTx, tx: SqlTx, read: ReadForChange | undefined): Promise<AppliedChange<R> | null> {
  const { access } = options;
  if (!read) throw incidentNotFound();
  const { prefetched, planEpoch, ...incident } = read;
  if (access && !(access.anyInvolvement ? incident.collaboration !== null : canAct(incident.collaboration))) throw incidentNotFound();
  if (incident.closedAt) throw new AppError("IncidentClosed", 409, "The incident is closed and accepts no change.");
  checkIfMatch(options.ifMatch, incident.version);

  const now = options.clock.now();
  const expected = { version: incident.version, planEpoch };
  const outcome = await options.mutate({ tx: mutationTx, incident, now });
  if (outcome.closedAt) incident.closedAt = outcome.closedAt;
  if (outcome.liveVideoEndsAt !== undefined) incident.liveVideoEndsAt = outcome.liveVideoEndsAt;
  if (outcome.changes.length === 0) {
    if (!outcome.internalChanged) return { result: outcome.result, version: incident.version, incident, changes: [] };
    const saved = await tx.query(Prisma.sql`
      UPDATE "Incident" SET internal = ${JSON.stringify(incident.internal)}::jsonb
      WHERE id = ${incident.id}::uuid AND version = ${expected.version} AND "planEpoch" = ${expected.planEpoch} RETURNING 1`);
    return saved.length ? { result: outcome.result, version: incident.version, incident, changes: [] } : null;
  }

  const changes = buildChanges({ incident, kinds: outcome.changes, now, actor: options.actor });
  const writes = await planSubscribers(tx, changes, prefetched);
  if (!(await writeChanges({ tx, incident, changes, writes, expected }))) return null;
  return { result: outcome.result, version: incident.version, incident, changes };
}

function checkIfMatch(header: string | undefined, version: number) {
  const parsed = parseIfMatch(header);
  if (!parsed || "any" in parsed) return;
  if (!parsed.versions.includes(version)) {
    throw new AppError("UpdateConflict", 409, `The incident changed since that ETag was read; its current ETag is "${version}". Read it again and retry.`);
  }
}

type ReadRow = Omit<IncidentState, "collaboration"> & { collaboration: CollaborationState | null; planEpoch: number; seenEpoch: number; prefetched: unknown[] };
type ReadForChange = IncidentState & { planEpoch: number; prefetched: unknown[] | undefined };

/**
 * The incident with the acting agency's involvement and every change
 * subscriber's prefetch (the webhook lanes), in one round trip; "lock" adds
 * FOR UPDATE OF the incident.
 *
 * Under the lock the prefetch subqueries read with the statement's snapshot;
 * when the lock had to wait for a concurrent writer, the row comes back in its
 * newest version (READ COMMITTED re-check) but the subqueries do not. Every
 * lane writer bumps "planEpoch", so an epoch that differs from the one the
 * snapshot saw means the prefetched values may be stale: they are dropped and
 * each subscriber reads again inside the lock (one more round trip, only then).
 * A plain read is one consistent snapshot: the epochs always agree.
 */
async function readIncidentForChange(tx: SqlTx, incidentId: string, agencyId: string | undefined, mode: "read" | "lock"): Promise<ReadForChange | undefined> {
  const prefetches = changeSubscribers().map((s) => s.prefetch?.(incidentId) ?? Prisma.sql`NULL`);
  const [row] = await tx.query<ReadRow>(Prisma.sql`
    SELECT i.id::text AS id, i."ownerAgencyId"::text AS "ownerAgencyId", i."createdByAgencyId"::text AS "createdByAgencyId",
           i."routingMode"::text AS "routingMode", i.purpose::text AS purpose, i.version, i."lastSeq", i."closedAt",
           i."liveVideoEndsAt", i.snapshot, i.internal, ia.collaboration::text AS collaboration, i."planEpoch",
           (SELECT x."planEpoch" FROM "Incident" x WHERE x.id = ${incidentId}::uuid) AS "seenEpoch",
           ${prefetches.length ? Prisma.sql`jsonb_build_array(${Prisma.join(prefetches)})` : Prisma.sql`'[]'::jsonb`} AS prefetched
    FROM "Incident" i
    LEFT JOIN "IncidentAgency" ia ON ia."incidentId" = i.id AND ia."agencyId" = ${agencyId ?? null}::uuid
    WHERE i.id = ${incidentId}::uuid
    ${mode === "lock" ? Prisma.sql`FOR UPDATE OF i` : Prisma.empty}`);
  if (!row) return undefined;
  const { seenEpoch, prefetched, ...incident } = row;
  return { ...incident, prefetched: row.planEpoch === seenEpoch ? prefetched : undefined };
}
