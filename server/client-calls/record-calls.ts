// Recording never slows or fails a call (docs/decisions/0072): the HTTP layer hands each call's
// facts to this queue and answers; the queue is written in batches, one statement each, every
// 200 ms or once 500 calls wait. A full queue (10,000 calls: the database is gone, or slower than
// the calls) drops what does not fit and counts it, in ClientCallDrops, which every process adds
// to and the page shows ("N calls not recorded under load"). While the database is out of reach a
// batch waits in the queue and is written once it is back.
import { Prisma, type DbClient } from "../platform/db/client.ts";
import { createOutageLog } from "../platform/db/outage-log.ts";
import { sqlQuery } from "../platform/db/sql-transaction.ts";
import { isDatabaseUnavailable } from "../platform/db/database-unavailable.ts";
import { toStorableText } from "../platform/json-input.ts";
import type { Logger } from "../platform/logger.ts";
import type { Worker } from "../platform/worker.ts";
import type { Runtime } from "../runtime.ts";
import type { ClientCallInput } from "./call-record.ts";

export const MAX_QUEUED_CALLS = 10_000;
const BATCH_CALLS = 500;
const FLUSH_MS = 200;

export type CallRecorder = {
  /** Queues a call; returns false when the queue was full and the call was dropped (and counted). */
  record: (call: ClientCallInput) => boolean;
  /** Writes everything queued now (tests, the worker's stop). */
  flush: () => Promise<void>;
  /** Calls dropped by this process since it started. */
  dropped: () => number;
  stop: () => Promise<void>;
};

type Options = { db: DbClient; logger: Logger; enabled?: boolean };

export function createCallRecorder(options: Options): CallRecorder {
  const { db } = options;
  const queue: ClientCallInput[] = [];
  let droppedTotal = 0;
  let droppedUnsaved = 0;
  let lastDropAt: Date | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | undefined;
  let stopped = false;
  const outage = createOutageLog(options.logger, "recording API calls", { maxMs: 30_000 });

  const schedule = (ms: number) => {
    if (timer || stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void write();
    }, ms);
    timer.unref();
  };

  async function write(): Promise<void> {
    if (writing) return writing;
    writing = (async () => {
      while (queue.length > 0 || droppedUnsaved > 0) {
        const batch = queue.splice(0, BATCH_CALLS);
        const drops = droppedUnsaved;
        droppedUnsaved = 0;
        try {
          if (batch.length > 0) await insertCalls(db, batch).catch((err: unknown) => insertOneByOne(err, batch));
          if (drops > 0 && lastDropAt) await countDrops(db, drops, lastDropAt);
          outage.succeeded();
        } catch (err) {
          // Back at the front, as far as there is room; what does not fit is counted as dropped.
          const room = Math.max(0, MAX_QUEUED_CALLS - queue.length);
          queue.unshift(...batch.slice(0, room));
          const lost = batch.length - Math.min(batch.length, room);
          droppedTotal += lost;
          droppedUnsaved += drops + lost;
          if (lost > 0) lastDropAt = batch.at(-1)!.receivedAt;
          schedule(outage.failed(err, "API calls could not be recorded"));
          return;
        }
      }
    })().finally(() => {
      writing = undefined;
    });
    return writing;
  }

  /**
   * A batch the database refused for a reason other than an outage: written call by call, so one
   * call it cannot keep is dropped (and counted) instead of holding every call behind it.
   */
  async function insertOneByOne(err: unknown, batch: ClientCallInput[]): Promise<void> {
    if (isDatabaseUnavailable(err)) throw err;
    let lost = 0;
    for (const call of batch) {
      try {
        await insertCalls(db, [call]);
      } catch (one) {
        if (isDatabaseUnavailable(one)) throw one;
        lost++;
        lastDropAt = call.receivedAt;
      }
    }
    if (lost === 0) return;
    droppedTotal += lost;
    droppedUnsaved += lost;
    options.logger.warn(
      { lost, reason: (err as Error)?.message },
      "API calls the database would not keep were dropped",
    );
  }

  return {
    record(call) {
      if (options.enabled === false || stopped) return false;
      if (queue.length >= MAX_QUEUED_CALLS) {
        droppedTotal++;
        droppedUnsaved++;
        lastDropAt = call.receivedAt;
        return false;
      }
      queue.push(call);
      if (queue.length >= BATCH_CALLS) void write();
      else schedule(FLUSH_MS);
      return true;
    },
    async flush() {
      clearTimeout(timer);
      timer = undefined;
      await writing;
      await write();
    },
    dropped: () => droppedTotal,
    async stop() {
      await this.flush().catch(() => {});
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** One statement for the batch; a LoginUserByToken call finds its client by the sign-in token's digest. */
async function insertCalls(db: DbClient, calls: ClientCallInput[]): Promise<void> {
  // NUL and lone surrogates (a caller's bad bytes, refused by the platform but kept as sent) would
  // fail the statement: every string is kept in a form PostgreSQL stores (json-input.ts).
  const rows = calls.map((c) =>
    storable({ ...c, receivedAt: c.receivedAt.toISOString(), signInDigests: c.signInDigests ?? [] }),
  );
  await sqlQuery(
    db,
    Prisma.sql`
    INSERT INTO "ClientCall" ("receivedAt", "durationMs", surface, operation, method, path, "clientId", "agencyId",
      username, status, "problemCode", request, "requestBody", response, "responseBody", token, "tokenDigest",
      fault, "incidentId", "changeSeqs", "traceId", console)
    SELECT r."receivedAt", r."durationMs", r.surface, r.operation, r.method, r.path,
      COALESCE(r."clientId", (SELECT s."clientId" FROM "SigninToken" s
                              WHERE s."tokenHash" = ANY(ARRAY(SELECT jsonb_array_elements_text(r."signInDigests")))
                              LIMIT 1)),
      r."agencyId", r.username, r.status, r."problemCode", r.request, r."requestBody", r.response, r."responseBody",
      r.token, r."tokenDigest", r.fault, r."incidentId",
      ARRAY(SELECT jsonb_array_elements_text(r."changeSeqs"))::int[], r."traceId", r.console
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
      "receivedAt" timestamptz, "durationMs" int, surface text, operation text, method text, path text,
      "clientId" text, "agencyId" text, username text, status int, "problemCode" text, request jsonb,
      "requestBody" text, response jsonb, "responseBody" text, token jsonb, "tokenDigest" text,
      "signInDigests" jsonb, fault text, "incidentId" text, "changeSeqs" jsonb, "traceId" text, console boolean)
    RETURNING 1`,
  );
}

async function countDrops(db: DbClient, dropped: number, at: Date): Promise<void> {
  await sqlQuery(
    db,
    Prisma.sql`
    INSERT INTO "ClientCallDrops" (id, dropped, "lastDropAt") VALUES (1, ${dropped}, ${at})
    ON CONFLICT (id) DO UPDATE SET dropped = "ClientCallDrops".dropped + ${dropped},
      "lastDropAt" = GREATEST("ClientCallDrops"."lastDropAt", ${at})
    RETURNING 1`,
  );
}

const recorders = new WeakMap<DbClient, CallRecorder>();

/** This process's recorder for its database: made on first use (RECORD_CLIENT_CALLS turns it off). */
export function callRecorderOf(runtime: Pick<Runtime, "db" | "logger" | "env">): CallRecorder {
  let recorder = recorders.get(runtime.db);
  if (!recorder) {
    recorder = createCallRecorder({ ...runtime, enabled: runtime.env.RECORD_CLIENT_CALLS });
    recorders.set(runtime.db, recorder);
  }
  return recorder;
}

/** The worker that writes what is queued when the process stops (server/workers.ts). */
export async function startCallRecorderWorker(runtime: Runtime): Promise<Worker> {
  const recorder = callRecorderOf(runtime);
  return { name: "client-call-recorder", stop: () => recorder.stop() };
}

/** Every string of a JSON-ready value (keys too) as toStorableText keeps it. */
function storable<T>(value: T): T {
  if (typeof value === "string") return toStorableText(value) as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [toStorableText(k), storable(v)])) as T;
}
