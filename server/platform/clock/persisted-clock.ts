// The clock offset lives in the database so every process (app servers and
// workers sharing one PostgreSQL) agrees. A change is announced with
// NOTIFY workbench_clock; each process LISTENs and applies it at once, and
// re-reads the row when its listener connection comes back after a failure,
// and every few seconds in case a notification was missed anyway.
import { Prisma, type DbClient } from "../db/client.ts";
import { listenToChannel } from "../db/listen-channel.ts";
import type { WorkbenchClock } from "./clock.ts";

const CHANNEL = "workbench_clock";
const RESYNC_EVERY_MS = 5_000;

type StoredClock = { offsetMs: number; version: bigint };

export async function loadStoredClock(db: DbClient): Promise<StoredClock> {
  const row = await db.workbenchClock.findUnique({ where: { id: 1 } });
  return row ? { offsetMs: Number(row.offsetMs), version: row.version } : { offsetMs: 0, version: 0n };
}

export async function loadClockOffset(db: DbClient): Promise<number> {
  return (await loadStoredClock(db)).offsetMs;
}

/**
 * Statements to run in the clock change's own transaction, before the new offset is stored (so
 * they can still read the old one): what other modules must move with the clock, done once.
 * `now` is the workbench time under the new offset.
 */
export type WithClockChange = (change: { offsetMs: bigint; now: Date }) => Prisma.PrismaPromise<unknown>[];

/** The NOTIFY payload: `<version>:<offsetMs>`. */
const parsePayload = (payload: string): StoredClock | undefined => {
  const match = /^(\d+):(-?\d+)$/.exec(payload);
  return match ? { version: BigInt(match[1]!), offsetMs: Number(match[2]) } : undefined;
};

/**
 * One statement that moves the stored clock and bumps its version. `relative`: offset = offset + ms, computed by PostgreSQL under the row lock, so concurrent
 * advances from several processes add up instead of the last one's in-memory sum winning.
 */
function moveStatement(db: DbClient, ms: bigint, relative: boolean, realNow: Date) {
  return db.$queryRaw<Array<{ offsetMs: bigint; version: bigint }>>`
    WITH moved AS (
      INSERT INTO "WorkbenchClock" AS c (id, "offsetMs", version, "updatedAt") VALUES (1, ${ms}::bigint, 1, ${realNow}::timestamptz)
      ON CONFLICT (id) DO UPDATE SET
        "offsetMs" = ${relative ? Prisma.sql`c."offsetMs" + ${ms}::bigint` : Prisma.sql`${ms}::bigint`},
        version = c.version + 1, "updatedAt" = EXCLUDED."updatedAt"
      RETURNING "offsetMs", version
    )
    SELECT "offsetMs", version FROM moved`;
}

/** After the move, in its transaction (the row is still locked, so this is the move's own version): sent at commit. */
const announceStatement = (db: DbClient) =>
  db.$executeRaw`SELECT pg_notify(${CHANNEL}, (SELECT version::text || ':' || "offsetMs"::text FROM "WorkbenchClock" WHERE id = 1))`;

async function moveClock(
  db: DbClient,
  clock: WorkbenchClock,
  ms: number,
  relative: boolean,
  withChange?: WithClockChange,
): Promise<number> {
  const amount = BigInt(Math.round(ms));
  // updatedAt is real time on purpose: it records when someone moved the clock.
  const realNow = new Date(clock.nowMs() - clock.offsetMs);
  const extra = relative
    ? []
    : (withChange?.({ offsetMs: amount, now: new Date(realNow.getTime() + Number(amount)) }) ?? []);
  const results = await db.$transaction([
    ...extra,
    moveStatement(db, amount, relative, realNow),
    announceStatement(db),
  ]);
  const [stored] = results[results.length - 2] as Array<{ offsetMs: bigint; version: bigint }>;
  clock.applyStored(Number(stored!.offsetMs), stored!.version);
  return Number(stored!.offsetMs);
}

/** Persists a new absolute offset (set, reset) and tells every process. Returns the offset now in force. */
export function saveClockOffset(
  db: DbClient,
  clock: WorkbenchClock,
  offsetMs: number,
  withChange?: WithClockChange,
): Promise<number> {
  return moveClock(db, clock, offsetMs, false, withChange);
}

/** Adds `byMs` to the stored offset (whatever other processes made it meanwhile) and tells every process. Returns the offset now in force. */
export function advanceClockOffset(db: DbClient, clock: WorkbenchClock, byMs: number): Promise<number> {
  return moveClock(db, clock, byMs, true);
}

/** Keeps `clock` in step with the stored offset until the returned stop() is called. */
export async function syncClockFromDatabase(options: {
  databaseUrl: string;
  db: DbClient;
  clock: WorkbenchClock;
  onError?: (e: Error) => void;
  /** A re-read succeeded (after an outage: the row is read again). */
  onSynced?: () => void;
  resyncEveryMs?: number;
}) {
  const { databaseUrl, db, clock } = options;
  let stopped = false;
  // Versioned: a re-read that started before a move and answers after its NOTIFY can never restore the older offset.
  const apply = (stored: StoredClock) => clock.applyStored(stored.offsetMs, stored.version);
  const resync = () => {
    if (!stopped)
      loadStoredClock(db).then(
        (stored) => {
          apply(stored);
          options.onSynced?.();
        },
        (e: Error) => options.onError?.(e),
      );
  };

  apply(await loadStoredClock(db));
  // A lost listener connection is made again with backoff; a move announced meanwhile is read at its return.
  const listener = await listenToChannel({
    databaseUrl,
    channel: CHANNEL,
    onNotification: (payload) => {
      const stored = payload ? parsePayload(payload) : undefined;
      if (stored) apply(stored);
      else resync();
    },
    onReconnect: resync,
    onError: options.onError,
  });
  const timer = setInterval(resync, options.resyncEveryMs ?? RESYNC_EVERY_MS);
  timer.unref();

  return async function stop() {
    stopped = true;
    clearInterval(timer);
    await listener.stop();
  };
}
