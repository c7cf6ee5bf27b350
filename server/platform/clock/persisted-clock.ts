// The clock offset lives in the database so every process (app servers and
// workers sharing one PostgreSQL) agrees. A change is announced with
// NOTIFY workbench_clock; each process LISTENs and applies it at once, and
// re-reads the row when its listener connection comes back after a failure,
// and every few seconds in case a notification was missed anyway.
import type { DbClient, Prisma } from "../db/client.ts";
import { listenToChannel } from "../db/listen-channel.ts";
import type { WorkbenchClock } from "./clock.ts";

const CHANNEL = "workbench_clock";
const RESYNC_EVERY_MS = 5_000;

export async function loadClockOffset(db: DbClient): Promise<number> {
  const row = await db.workbenchClock.findUnique({ where: { id: 1 } });
  return row ? Number(row.offsetMs) : 0;
}

/**
 * Statements to run in the clock change's own transaction, before the new offset is stored (so
 * they can still read the old one): what other modules must move with the clock, done once.
 * `now` is the workbench time under the new offset.
 */
export type WithClockChange = (change: { offsetMs: bigint; now: Date }) => Prisma.PrismaPromise<unknown>[];

/** Persists a new offset and tells every process. Returns the offset now in force. */
export async function saveClockOffset(db: DbClient, clock: WorkbenchClock, offsetMs: number, withChange?: WithClockChange): Promise<number> {
  const offset = BigInt(Math.round(offsetMs));
  // updatedAt is real time on purpose: it records when someone moved the clock.
  const now = new Date(clock.nowMs() - clock.offsetMs);
  await db.$transaction([
    ...(withChange?.({ offsetMs: offset, now: new Date(now.getTime() + Number(offset)) }) ?? []),
    db.workbenchClock.upsert({ where: { id: 1 }, create: { id: 1, offsetMs: offset, updatedAt: now }, update: { offsetMs: offset, updatedAt: now } }),
    db.$executeRaw`SELECT pg_notify(${CHANNEL}, ${offset.toString()})`,
  ]);
  clock.setOffset(Number(offset));
  return Number(offset);
}

/** Keeps `clock` in step with the stored offset until the returned stop() is called. */
export async function syncClockFromDatabase(options: { databaseUrl: string; db: DbClient; clock: WorkbenchClock; onError?: (e: Error) => void }) {
  const { databaseUrl, db, clock } = options;
  let stopped = false;
  const resync = () => {
    if (!stopped) loadClockOffset(db).then((o) => clock.setOffset(o), (e: Error) => options.onError?.(e));
  };

  clock.setOffset(await loadClockOffset(db));
  // A lost listener connection is made again with backoff; a move announced meanwhile is read at its return.
  const listener = await listenToChannel({
    databaseUrl,
    channel: CHANNEL,
    onNotification: (payload) => {
      if (payload) clock.setOffset(Number(payload));
    },
    onReconnect: resync,
    onError: options.onError,
  });
  const timer = setInterval(resync, RESYNC_EVERY_MS);
  timer.unref();

  return async function stop() {
    stopped = true;
    clearInterval(timer);
    await listener.stop();
  };
}
