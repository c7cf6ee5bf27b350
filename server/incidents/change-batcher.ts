// The optimistic path: changes arriving together are read in one statement and
// written in one statement, at most one change per incident a batch, without a
// transaction or row lock (docs/decisions/0010); an incident this batcher wrote
// last is not read but starts from what it wrote (docs/decisions/0041). The
// batcher also keeps each incident's changes in arrival order, the locked ones too.
import pg from "pg";
import type { DbClient } from "../platform/db/client.ts";
import { inAutocommit, type SqlTx } from "../platform/db/sql-transaction.ts";
import { processSingleton } from "../platform/process-singleton.ts";
import type { AppliedChange, ApplyChangeOptions } from "./change-types.ts";
import { applyLocked, prepareChange, saveInternal, type Prepared } from "./prepare-change.ts";
import { changeSubscribers, type ChangeSubscriber } from "./change-record.ts";
import { readIncidents, type ReadIncident } from "./read-incidents.ts";
import { RecentIncidents } from "./recent-incidents.ts";
import { recordStatement, type RecordRow } from "./record-changes.ts";
import { activeTracing, type TraceSpan } from "../platform/tracing/tracing.ts";
import { traceChange } from "./trace-change.ts";

/** Optimistic tries before the locked path: a change whose incident changed since its read is read and mutated again; a contended incident soon waits its turn on the lock. */
const OPTIMISTIC_ATTEMPTS = 2;
/** Batches in flight at once (each is a read and a write statement, on any pool connection): while one waits on PostgreSQL, Node prepares the next. */
const BATCHES_IN_FLIGHT = 3;
/** Changes per batch at most. */
const BATCH_SIZE = 64;

type Pending = {
  options: ApplyChangeOptions<unknown>;
  attempts: number;
  /** Goes the locked way: a `transactional` mutation, or the fallback of an optimistic change. */
  locked?: boolean;
  resolve: (applied: AppliedChange<unknown>) => void;
  reject: (error: unknown) => void;
  /** The change's span, when tracing is on (trace-change.ts). */
  span?: TraceSpan;
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
export class ChangeBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  /** Incidents with a change in a batch or a locked transaction right now. */
  private readonly busy = new Set<string>();
  private scheduled = false;
  /** The incidents this batcher wrote last, as written: their next change skips the read. */
  readonly recent = new RecentIncidents();

  constructor(private readonly db: DbClient) {}

  submit(options: ApplyChangeOptions<unknown>): Promise<AppliedChange<unknown>> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { options, attempts: 0, locked: options.transactional === true, resolve, reject };
      const tracing = activeTracing();
      if (tracing !== null) traceChange(tracing, pending);
      this.queue.push(pending);
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
    this.recent.forget(id);
    void applyLocked(p.options)
      .then(p.resolve, p.reject)
      .finally(() => {
        this.busy.delete(id);
        if (this.queue.length) this.schedule();
      });
  }

  /**
   * The batch's incidents: each one this batcher wrote last as it wrote it (taken: a change that fails
   * leaves nothing behind), the rest in one read statement.
   */
  private async read(
    tx: SqlTx,
    batch: Pending[],
    subscribers: readonly ChangeSubscriber[],
    remembered: Set<Pending>,
  ): Promise<Array<ReadIncident | undefined>> {
    const reads = batch.map((p) => this.recent.take(p.options.incidentId, p.options.access?.agencyId, subscribers));
    const toRead: number[] = [];
    reads.forEach((read, i) => (read ? remembered.add(batch[i]!) : toRead.push(i)));
    if (toRead.length === 0) return reads;
    const wanted = toRead.map((i) => ({
      incidentId: batch[i]!.options.incidentId,
      agencyId: batch[i]!.options.access?.agencyId,
    }));
    (await readIncidents(tx, wanted, false)).forEach((read, k) => (reads[toRead[k]!] = read));
    return reads;
  }

  private async run(batch: Pending[]): Promise<void> {
    const settled = new Set<Pending>();
    const settle = (p: Pending, outcome: () => void) => {
      settled.add(p);
      outcome();
    };
    const retry: Pending[] = [];
    /** Changes that start from what this batcher wrote last: a refusal or a write that finds the row moved reads it again. */
    const remembered = new Set<Pending>();
    // The subscribers whose prefetches this batch reads, remembers and hands on (registered at start-up).
    const subscribers = changeSubscribers();
    let writing = false;
    try {
      await inAutocommit(this.db, async (tx) => {
        const reads = await this.read(tx, batch, subscribers, remembered);
        const prepared = await Promise.all(
          batch.map((p, i) =>
            prepareChange(tx, p.options, reads[i]).then(
              (ready) => ({ p, ready, prefetched: reads[i]!.prefetched }),
              // A check refused on remembered state is not an answer: the row may have moved. Read it and try again.
              (error: unknown) => settle(p, () => (remembered.has(p) ? retry.push(p) : p.reject(error))),
            ),
          ),
        );
        const writes: Array<{ p: Pending; ready: Prepared<unknown>; prefetched: unknown[] | undefined }> = [];
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
        const { statement, stateJson, then } = recordStatement(writes.map(({ ready }) => ready.write!));
        writing = true;
        const { applied, xmins, committed } = then(await tx.query<RecordRow>(statement));
        for (const { p, ready, prefetched } of writes) {
          const id = p.options.incidentId;
          if (!applied.has(id)) {
            settle(p, () => retry.push(p));
            continue;
          }
          const xmin = xmins.get(id);
          const next = nextPrefetched(subscribers, prefetched, ready.write!.plans);
          if (xmin && next && ready.write!.planningVersion)
            this.recent.remember(ready.applied.incident, {
              agencyId: p.options.access?.agencyId,
              xmin,
              state: stateJson.get(id)!,
              prefetched: next,
              subscribers,
              planningVersion: ready.write!.planningVersion,
            });
          settle(p, () => tx.afterCommit(() => p.resolve(ready.applied)));
        }
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
    // A try on remembered state costs no attempt: the next one reads.
    for (const p of retry) if (!remembered.has(p) && ++p.attempts >= OPTIMISTIC_ATTEMPTS) p.locked = true;
    // Back to the head of the queue, in batch order, before this batch's incidents are free: each keeps its place.
    this.queue.unshift(...retry);
  }
}

/** Each subscriber's prefetch as it reads once the plans committed; undefined when any cannot tell. */
function nextPrefetched(
  subscribers: readonly ChangeSubscriber[],
  prefetched: unknown[] | undefined,
  plans: Array<unknown | null>,
): unknown[] | undefined {
  if (!prefetched) return undefined;
  const next: unknown[] = [];
  for (let i = 0; i < subscribers.length; i++) {
    const s = subscribers[i]!;
    if (!s.prefetch) {
      next.push(null);
      continue;
    }
    const after = s.nextPrefetch?.(prefetched[i], plans[i] ?? null);
    if (after === undefined) return undefined;
    next.push(after);
  }
  return next;
}

// One batcher per client in the process: tRPC procedures (Next's bundle) and the API share it.
const BATCHERS = processSingleton("change-batchers", () => new WeakMap<DbClient, ChangeBatcher>());
export function batcherOf(db: DbClient): ChangeBatcher {
  let batcher = BATCHERS.get(db);
  if (!batcher) BATCHERS.set(db, (batcher = new ChangeBatcher(db)));
  return batcher;
}
