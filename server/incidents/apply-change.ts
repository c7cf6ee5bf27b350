// The one function through which an existing incident changes: it reads the
// incident, checks access and state, lets the caller mutate a copy of the
// snapshot, bumps the version, and writes the new state, one IncidentChange per
// change (next seq) and the subscribers' writes (change-record.ts) in one
// statement — so a change, its record and its planned deliveries commit or roll
// back together, and no update is ever lost: seq follows commit order.
//
// Two paths:
// - optimistic (the default): changes arriving together are read in one
//   statement and written in one statement (a batch: at most one change per
//   incident), without a transaction or row lock; each incident's part applies
//   only if its row is still the version read (xmin). One that changed in
//   between is read and mutated again, and after OPTIMISTIC_ATTEMPTS it takes
//   the locked path. Why: per statement, PostgreSQL's executor start-up, the
//   round trip and the commit cost as much as the writes themselves; a batch
//   pays them once (docs/decisions/0010).
// - locked: one transaction holding the incident's row lock (SELECT … FOR
//   UPDATE) from the read to the commit; for mutations that write rows of their
//   own (`transactional`), and as the fallback.
import pg from "pg";
import type { Clock } from "../platform/clock/clock.ts";
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { inAutocommit, inSqlTransaction, type SqlTx } from "../platform/db/sql-transaction.ts";
import { AppError } from "../platform/errors.ts";
import { changeSubscribers, type IncidentChange, type IncidentChangeKind } from "./change-record.ts";
import { isUuid } from "./db-handle.ts";
import { canAct, parseIfMatch, type CollaborationState, type IncidentState } from "./incident-state.ts";
import {
  buildChanges,
  finishWithRecord,
  planSubscribers,
  recordStatement,
  type ChangeToWrite,
  type RecordRow,
} from "./record-changes.ts";
import { fillTracks, markTracks, trackDelta } from "./track-storage.ts";
import { processSingleton } from "../platform/process-singleton.ts";

export type MutationContext = { incident: IncidentState; now: Date };
type Mutate<R, C> = (ctx: C) => MutationOutcome<R> | Promise<MutationOutcome<R>>;
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
} &
  /**
   * Mutates `incident.snapshot` / `incident.internal` in place (a private copy) and names the changes; throws AppError for a refused transition.
   * Optimistic by default: the incident is read without a lock and written by one statement that applies only if the row is still
   * as read (its xmin); otherwise `mutate` runs again on a fresh read, and after OPTIMISTIC_ATTEMPTS under the row lock. So it must
   * be pure but for the incident it is given.
   */
  (
    | { transactional?: false; mutate: Mutate<R, MutationContext> }
    /** A mutation that writes rows of its own through `tx`: it runs under the incident's row lock, in the change's transaction. */
    | { transactional: true; mutate: Mutate<R, MutationContext & { tx: SqlTx }> }
  );

/** `incident.snapshot`'s tracks are lazy (track-storage.ts): whole only if a subscriber filled them; read the incident again for its tracks. */
export type AppliedChange<R> = { result: R; version: number; incident: IncidentState; changes: IncidentChange[] };

export const incidentNotFound = () =>
  new AppError("IncidentNotFound", 404, "No incident with that ID is accessible to the token's agency.");

export async function applyIncidentChange<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R>> {
  const { incidentId, access } = options;
  if (!isUuid(incidentId) || (access && !isUuid(access.agencyId))) throw incidentNotFound();
  // Every change of the process goes through its batcher, the locked ones too: it keeps each incident's changes in arrival order.
  return batcherOf(options.db).submit(options) as Promise<AppliedChange<R>>;
}

/** The locked path: one transaction holding the incident's row lock; the record statement rides with COMMIT. */
function applyLocked<R>(options: ApplyChangeOptions<R>): Promise<AppliedChange<R>> {
  return inSqlTransaction(options.db, async (tx) => {
    const [read] = await readIncidents(
      tx,
      [{ incidentId: options.incidentId, agencyId: options.access?.agencyId }],
      true,
    );
    const prepared = await prepareChange(tx, options, read);
    if (prepared.write) finishWithRecord(tx, prepared.write);
    else if (prepared.internal) await tx.execute(saveInternal(prepared.applied.incident, undefined));
    return prepared.applied;
  });
}

/** Optimistic tries before the locked path: a change whose incident changed since its read is read and mutated again; a contended incident soon waits its turn on the lock. */
const OPTIMISTIC_ATTEMPTS = 2;
/** Batches in flight at once (each is a read and a write statement, on any pool connection): while one waits on PostgreSQL, Node prepares the next. */
const BATCHES_IN_FLIGHT = 3;
/** Changes per batch at most. */
const BATCH_SIZE = 64;

type Prepared<R> = {
  applied: AppliedChange<R>;
  /** The record statement's part (absent: nothing recorded). */
  write?: ChangeToWrite;
  /** Only `incident.internal` changed: saved on its own, without a version bump or change record. */
  internal?: boolean;
  readXmin?: string;
};

/** The checks, the mutation and the subscribers' plans, on the incident as read (locked, or with the xmin its write must still find). */
async function prepareChange<R>(
  tx: SqlTx,
  options: ApplyChangeOptions<R>,
  read: ReadIncident | undefined,
): Promise<Prepared<R>> {
  const { access } = options;
  if (!read) throw incidentNotFound();
  const { prefetched, readXmin, ...incident } = read;
  const marks = markTracks(incident.snapshot);
  if (access && !(access.anyInvolvement ? incident.collaboration !== null : canAct(incident.collaboration)))
    throw incidentNotFound();
  if (incident.closedAt) throw new AppError("IncidentClosed", 409, "The incident is closed and accepts no change.");
  checkIfMatch(options.ifMatch, incident.version);

  const now = options.clock.now();
  const outcome = await options.mutate({ tx, incident, now });
  if (outcome.closedAt) incident.closedAt = outcome.closedAt;
  if (outcome.liveVideoEndsAt !== undefined) incident.liveVideoEndsAt = outcome.liveVideoEndsAt;
  if (outcome.changes.length === 0)
    return {
      applied: { result: outcome.result, version: incident.version, incident, changes: [] },
      internal: outcome.internalChanged,
      readXmin,
    };

  const delta = trackDelta(incident.snapshot.caller.tracks, marks);
  const changes = buildChanges({ incident, kinds: outcome.changes, now, actor: options.actor });
  let filled: Promise<void> | undefined;
  const fullTracks = () => (filled ??= fillTracks(tx, incident.id, incident.snapshot, marks));
  const plans = await planSubscribers(tx, changes, prefetched, fullTracks);
  return {
    applied: { result: outcome.result, version: incident.version, incident, changes },
    write: { incident, changes, plans, delta, readXmin },
  };
}

const saveInternal = (incident: IncidentState, readXmin: string | undefined) => Prisma.sql`
  UPDATE "Incident" SET internal = ${JSON.stringify(incident.internal)}::jsonb
  WHERE id = ${incident.id}::uuid${readXmin === undefined ? Prisma.empty : Prisma.sql` AND xmin = ${readXmin}::xid`}`;

type Pending = {
  options: ApplyChangeOptions<unknown>;
  attempts: number;
  /** Goes the locked way: a `transactional` mutation, or the fallback of an optimistic change. */
  locked?: boolean;
  resolve: (applied: AppliedChange<unknown>) => void;
  reject: (error: unknown) => void;
};

/**
 * Gathers the optimistic changes that arrive while earlier batches are in
 * flight, and runs them as batches: one read statement, each change's checks,
 * mutation and plans, one record statement. A batch holds at most one change
 * per incident, and an incident is in one batch or one locked transaction at
 * a time: its later changes wait, in arrival order, until that one is settled.
 * A change that falls back to the locked path goes back to the head of the
 * queue and keeps its place, so a later change of its incident can never
 * commit before it (change-batches.int.test.ts forces the fallback).
 */
class ChangeBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Incidents with a change in a batch or a locked transaction right now. */
  private readonly busy = new Set<string>();
  private scheduled = false;

  constructor(private readonly db: DbClient) {}

  submit(options: ApplyChangeOptions<unknown>): Promise<AppliedChange<unknown>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ options, attempts: 0, locked: options.transactional === true, resolve, reject });
      this.schedule();
    });
  }

  /** On the next turn of the event loop: the changes whose requests arrived in this one join the batch. */
  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Starts what may start: per incident only its oldest queued change, and only while none of its changes is under way. */
  private pump() {
    for (;;) {
      const batch: Pending[] = [];
      const waiting: Pending[] = [];
      const seen = new Set<string>();
      const canBatch = this.inFlight < BATCHES_IN_FLIGHT;
      for (const p of this.queue) {
        const id = p.options.incidentId;
        const first = !seen.has(id) && !this.busy.has(id);
        seen.add(id);
        if (first && p.locked) this.startLocked(p);
        else if (first && canBatch && batch.length < BATCH_SIZE) batch.push(p);
        else waiting.push(p);
      }
      this.queue = waiting;
      if (batch.length === 0) return;
      const ids = batch.map((p) => p.options.incidentId);
      for (const id of ids) this.busy.add(id);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        for (const id of ids) this.busy.delete(id);
        if (this.queue.length) this.schedule();
      });
    }
  }

  private startLocked(p: Pending) {
    const id = p.options.incidentId;
    this.busy.add(id);
    void applyLocked(p.options)
      .then(p.resolve, p.reject)
      .finally(() => {
        this.busy.delete(id);
        if (this.queue.length) this.schedule();
      });
  }

  private async run(batch: Pending[]): Promise<void> {
    const settled = new Set<Pending>();
    const settle = (p: Pending, outcome: () => void) => {
      settled.add(p);
      outcome();
    };
    const retry: Pending[] = [];
    let writing = false;
    try {
      await inAutocommit(this.db, async (tx) => {
        const reads = await readIncidents(
          tx,
          batch.map((p) => ({ incidentId: p.options.incidentId, agencyId: p.options.access?.agencyId })),
          false,
        );
        const prepared = await Promise.all(
          batch.map((p, i) =>
            prepareChange(tx, p.options, reads[i]).then(
              (ready) => ({ p, ready }),
              (error: unknown) => settle(p, () => p.reject(error)),
            ),
          ),
        );
        const writes: Array<{ p: Pending; ready: Prepared<unknown> }> = [];
        for (const item of prepared) {
          if (!item) continue;
          const { p, ready } = item;
          if (ready.write) {
            writes.push(item);
            continue;
          }
          writing = true;
          const saved = !ready.internal || (await tx.execute(saveInternal(ready.applied.incident, ready.readXmin))) > 0;
          writing = false;
          settle(p, () => (saved ? p.resolve(ready.applied) : retry.push(p)));
        }
        if (writes.length === 0) return;
        const { statement, then } = recordStatement(writes.map(({ ready }) => ready.write!));
        writing = true;
        const { applied, committed } = then(await tx.query<RecordRow>(statement));
        for (const { p, ready } of writes)
          settle(p, () =>
            applied.has(p.options.incidentId) ? tx.afterCommit(() => p.resolve(ready.applied)) : retry.push(p),
          );
        tx.afterCommit(committed);
      });
    } catch (error) {
      // A statement PostgreSQL refused wrote nothing: each change not yet settled is applied again on its own, locked,
      // and meets its own outcome (the error, or success if the failure was another change's). A write whose answer
      // never came (the connection failed) may have committed: its changes answer the error rather than risk a second copy.
      const unknownOutcome = writing && !(error instanceof pg.DatabaseError);
      for (const p of batch) {
        if (settled.has(p)) continue;
        if (unknownOutcome) p.reject(error);
        else retry.push(Object.assign(p, { locked: true }));
      }
    }
    for (const p of retry) if (++p.attempts >= OPTIMISTIC_ATTEMPTS) p.locked = true;
    // Back to the head of the queue, in batch order, before this batch's incidents are free: each keeps its place.
    this.queue.unshift(...retry);
  }
}

// One batcher per client in the process: tRPC procedures (Next's bundle) and the API share it.
const BATCHERS = processSingleton("change-batchers", () => new WeakMap<DbClient, ChangeBatcher>());
function batcherOf(db: DbClient): ChangeBatcher {
  let batcher = BATCHERS.get(db);
  if (!batcher) BATCHERS.set(db, (batcher = new ChangeBatcher(db)));
  return batcher;
}

function checkIfMatch(header: string | undefined, version: number) {
  const parsed = parseIfMatch(header);
  if (!parsed || "any" in parsed) return;
  if (!parsed.versions.includes(version)) {
    throw new AppError(
      "UpdateConflict",
      409,
      `The incident changed since that ETag was read; its current ETag is "${version}". Read it again and retry.`,
    );
  }
}

type ReadRow = Omit<IncidentState, "collaboration"> & {
  collaboration: CollaborationState | null;
  planEpoch: number;
  seenEpoch: number;
  prefetched: unknown[];
  readXmin: string;
};
type ReadIncident = IncidentState & { prefetched?: unknown[]; readXmin?: string };

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
async function readIncidents(
  tx: SqlTx,
  wanted: Array<{ incidentId: string; agencyId: string | undefined }>,
  lock: boolean,
): Promise<Array<ReadIncident | undefined>> {
  const prefetches = changeSubscribers().map((s) => s.prefetch?.(Prisma.raw("inc.id")) ?? Prisma.sql`NULL`);
  const rows = await tx.query<ReadRow & { n: number }>(Prisma.sql`
    SELECT q.n, inc.id::text AS id, inc."ownerAgencyId"::text AS "ownerAgencyId", inc."createdByAgencyId"::text AS "createdByAgencyId",
           inc."routingMode"::text AS "routingMode", inc.purpose::text AS purpose, inc.version, inc."lastSeq", inc."closedAt",
           inc."liveVideoEndsAt", inc.snapshot, inc.internal, ia.collaboration::text AS collaboration, inc."planEpoch", inc.xmin::text AS "readXmin",
           ${lock ? Prisma.sql`(SELECT x."planEpoch" FROM "Incident" x WHERE x.id = inc.id)` : Prisma.sql`inc."planEpoch"`} AS "seenEpoch",
           ${prefetches.length ? Prisma.sql`jsonb_build_array(${Prisma.join(prefetches)})` : Prisma.sql`'[]'::jsonb`} AS prefetched
    FROM unnest(${wanted.map((w) => w.incidentId)}::uuid[], ${wanted.map((w) => w.agencyId ?? null)}::uuid[]) WITH ORDINALITY AS q(id, "agencyId", n)
    JOIN "Incident" inc ON inc.id = q.id
    LEFT JOIN "IncidentAgency" ia ON ia."incidentId" = inc.id AND ia."agencyId" = q."agencyId"
    ${lock ? Prisma.sql`FOR UPDATE OF inc` : Prisma.empty}`);
  const found: Array<ReadIncident | undefined> = wanted.map(() => undefined);
  for (const { n, planEpoch, seenEpoch, prefetched, readXmin, ...incident } of rows) {
    found[Number(n) - 1] = {
      ...incident,
      prefetched: planEpoch === seenEpoch ? prefetched : undefined,
      readXmin: lock ? undefined : readXmin,
    };
  }
  return found;
}
