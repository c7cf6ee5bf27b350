// Processing after answering: applies an incident's recorded, not yet processed
// deliveries to the replica, in the order they were recorded. The engine sends
// one incident's events strictly in order (Delivery rules 3), so processing must
// keep that order even when the next delivery is answered before the previous one
// was applied.
//
// One queue per process: the (receiver, incident) pairs asked for while a batch
// runs wait, and the next batch takes them all in one transaction
// (process-records.ts). A pair asked for again while it is being processed is
// taken again by the next batch, so a record committed meanwhile is not left behind.
// Across processes, pg_try_advisory_xact_lock per pair: a process that finds the
// pair taken holds no connection while it waits and asks again shortly; once it
// has the lock it reads what is still pending. (A blocking advisory lock held
// connections while waiting: under 32 concurrent deliveries for one incident it
// starved the pool and recording stalled.)
import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import { processSingleton } from "../platform/process-singleton.ts";
import { processRecords, RECORDS_PER_PAIR, type PairOutcome, type ReceiverIncidentKey } from "./process-records.ts";
import { receiverEvents } from "./receiver-events.ts";
import { activeTracing } from "../platform/tracing/tracing.ts";
import { traceProcessingBatch } from "./trace-processing.ts";

type Options = {
  db: DbClient;
  clock: Clock;
  integrationKey: string;
  incidentId: string | null;
  /** With tracing on, the delivery request's span (W3C traceparent): the batch's span links it (trace-processing.ts). */
  traceparent?: string;
};

/** Waiting for another process's batch: 25 ms apart, for at most 10 s (a batch takes milliseconds). */
const BUSY_RETRY_MS = 25;
const BUSY_RETRIES = 400;
/** Pairs in one transaction; more wait for the next one. */
const PAIRS_PER_BATCH = 128;
/**
 * Batches start at least BATCH_MIN_GAP_MS apart: under load the pairs of that time share one
 * transaction instead of the few that arrived during the last one's round trips. A batch has a cost
 * of its own (a transaction of five statements, each planned for its batch) and one per pair (its
 * replica is read and rewritten): one busy incident gathers a few records a batch, not one, and the
 * more pairs the last batch applied records of, the longer the gap: GAP_MS_PER_PAIR each, up to
 * BATCH_MAX_GAP_MS, and each pair gathers several records per rewrite rather than about one
 * (docs/decisions/0043). A batch that left work behind (more pairs waiting than it took, or a pair
 * with more records than it applied) is followed at once.
 * Processing follows the answer (the sender waits for the record only), so this costs the sender
 * nothing; an idle receiver's first delivery is processed at once.
 */
const BATCH_MIN_GAP_MS = 50;
const BATCH_MAX_GAP_MS = 250;
const GAP_MS_PER_PAIR = 4;

/** How long after the last batch's start the next may start, given what the last one did. */
export function batchGapMs(last: { pairs: number; leftWork: boolean }): number {
  if (last.leftWork) return 0;
  return Math.min(BATCH_MAX_GAP_MS, Math.max(BATCH_MIN_GAP_MS, GAP_MS_PER_PAIR * last.pairs));
}

type Waiter = {
  options: Options;
  busy: number;
  settle: Array<{ resolve: () => void; reject: (error: unknown) => void; traceparent?: string }>;
};

const queue = processSingleton("receiver-processing", () => ({
  waiting: new Map<string, Waiter>(),
  running: null as Promise<void> | null,
  scheduled: false,
  /** When the last batch started (performance.now()). */
  lastStartMs: -Infinity,
  /** What the last finished batch did (all databases): pairs it applied records of, and whether it left work behind. */
  lastBatch: { pairs: 0, leftWork: false },
  /** Pairs waiting out another process's lock. */
  delayed: 0,
}));

/** Resolves once this pair's records, as committed when it was called, are applied (or rejects with the batch's error). */
export function processPendingDeliveries(options: Options): Promise<void> {
  return new Promise((resolve, reject) => {
    enqueue({ options, busy: 0, settle: [{ resolve, reject, traceparent: options.traceparent }] });
  });
}

/**
 * Resolves once no processing runs or waits in this process (graceful shutdown, tests):
 * closing the database under a running transaction can leave its disconnect waiting.
 */
export async function whenReceiverProcessingIdle(): Promise<void> {
  // Processing starts when a response has gone out: give those callbacks a turn first.
  await new Promise((resolve) => setImmediate(resolve));
  while (queue.running || queue.scheduled || queue.waiting.size > 0 || queue.delayed > 0) {
    if (queue.running) await queue.running.catch(() => {});
    else await new Promise((resolve) => setTimeout(resolve, queue.delayed > 0 ? BUSY_RETRY_MS : 0));
  }
}

const pairKey = (o: Options) => `${o.integrationKey}\u0000${o.incidentId ?? ""}`;

function enqueue(waiter: Waiter) {
  const key = pairKey(waiter.options);
  const queued = queue.waiting.get(key);
  if (queued) queued.settle.push(...waiter.settle);
  else queue.waiting.set(key, waiter);
  kick();
}

/**
 * Starts a batch on the next turn (so the pairs of one burst share it), or once the gap after the
 * last one's start has passed (batchGapMs), unless one runs: it starts the next.
 */
function kick() {
  if (queue.running || queue.scheduled || queue.waiting.size === 0) return;
  queue.scheduled = true;
  const waitMs = queue.lastStartMs + batchGapMs(queue.lastBatch) - performance.now();
  if (waitMs > 0) setTimeout(startBatch, waitMs);
  else setImmediate(startBatch);
}

function startBatch() {
  queue.scheduled = false;
  queue.lastStartMs = performance.now();
  const cut = queue.waiting.size > PAIRS_PER_BATCH;
  const batch = [...queue.waiting.values()].slice(0, PAIRS_PER_BATCH);
  for (const waiter of batch) queue.waiting.delete(pairKey(waiter.options));
  queue.running = runBatch(batch)
    .then(({ pairs, more }) => {
      queue.lastBatch = { pairs, leftWork: cut || more };
    })
    .finally(() => {
      queue.running = null;
      kick();
    });
}

type BatchResult = {
  /** Pairs whose records it applied. */
  pairs: number;
  /** A pair had more pending records than one batch applies (taken again by the next). */
  more: boolean;
};

async function runBatch(batch: Waiter[]): Promise<BatchResult> {
  // Tests run several workbenches in one process: one transaction per database.
  const byDb = new Map<DbClient, Waiter[]>();
  for (const waiter of batch) byDb.set(waiter.options.db, [...(byDb.get(waiter.options.db) ?? []), waiter]);
  const results = await Promise.all([...byDb.values()].map(runOnDb));
  return { pairs: results.reduce((sum, r) => sum + r.pairs, 0), more: results.some((r) => r.more) };
}

/** Nothing applied when the transaction failed. */
async function runOnDb(waiters: Waiter[]): Promise<BatchResult> {
  const { db, clock } = waiters[0]!.options;
  const pairs: ReceiverIncidentKey[] = waiters.map((w) => ({
    integrationKey: w.options.integrationKey,
    incidentId: w.options.incidentId,
  }));
  const tracing = activeTracing();
  const startTime = tracing === null ? 0 : performance.timeOrigin + performance.now();
  let outcomes;
  try {
    outcomes = await processRecords(db, clock.now(), pairs);
  } catch (error) {
    if (tracing !== null) traceProcessingBatch(tracing, tracedBatch(startTime, waiters, null, error));
    for (const waiter of waiters) for (const s of waiter.settle) s.reject(error);
    return { pairs: 0, more: false };
  }
  if (tracing !== null) traceProcessingBatch(tracing, tracedBatch(startTime, waiters, outcomes));
  const result: BatchResult = { pairs: 0, more: false };
  for (const [i, waiter] of waiters.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.state === "busy") {
      // Another process is applying this pair's records; it gives the lock up within a batch.
      if (++waiter.busy > BUSY_RETRIES) settle(waiter);
      else retryLater(waiter);
      continue;
    }
    if (outcome.state === "processed") {
      result.pairs++;
      const { integrationKey, incidentId } = waiter.options;
      receiverEvents.emit("receiver:processed", {
        integrationKey,
        incidentId,
        recordIds: outcome.recordIds,
        anomalies: outcome.anomalies,
      });
      if (outcome.recordIds.length >= RECORDS_PER_PAIR) {
        result.more = true;
        enqueue(waiter); // more pending: the next batch takes the rest
        continue;
      }
    }
    settle(waiter);
  }
  return result;
}

/**
 * What the batch's span tells (tracing on only): the requests whose pairs it processed or found done
 * (a busy pair's are linked by the batch that does it), or all of them when it failed.
 */
function tracedBatch(startTime: number, waiters: Waiter[], outcomes: PairOutcome[] | null, error?: unknown) {
  const batch = { startTime, requests: [] as string[], pairs: 0, records: 0, integrations: new Set<string>(), error };
  for (const [i, waiter] of waiters.entries()) {
    const outcome = outcomes?.[i];
    if (outcome?.state === "busy") continue;
    if (outcome?.state === "processed") {
      batch.pairs++;
      batch.records += outcome.recordIds.length;
    }
    batch.integrations.add(waiter.options.integrationKey);
    for (const s of waiter.settle) if (s.traceparent !== undefined) batch.requests.push(s.traceparent);
  }
  return batch;
}

function retryLater(waiter: Waiter) {
  queue.delayed++;
  setTimeout(() => {
    queue.delayed--;
    enqueue(waiter);
  }, BUSY_RETRY_MS);
}

function settle(waiter: Waiter) {
  for (const s of waiter.settle) s.resolve();
}
