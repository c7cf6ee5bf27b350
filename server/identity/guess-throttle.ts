// Guessing slowed down (docs/decisions/0051-guessing-slowed-down.md, OWASP ASVS V6): wrong
// client secrets and wrong member passwords are counted per subject (client id, member name)
// and per source (the address the server sees). The first few failures within a window cost
// nothing (5 per subject; 20 per source, which many members or partners may share behind one
// address); each further one makes the key wait, doubling from 1 s up to 15 min. While a key
// waits, an attempt is refused before the secret is checked, and is not counted. A success
// clears the subject's key. Rows live in PostgreSQL, so every process on one database shares
// them; the credential purge deletes a row once its last failure is a window old.
import { Prisma, type DbClient } from "../platform/db/client.ts";
import type { Clock } from "../platform/clock/clock.ts";
import { AppError } from "../platform/errors.ts";

export const FREE_FAILURES = { subject: 5, source: 20 } as const;
export const WINDOW_MS = 15 * 60_000;
export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 15 * 60_000;
/** Keys are cut to this length, so a caller's long text cannot grow a row. */
const MAX_KEY_LENGTH = 200;

export type GuessKind = "client" | "member";
export type GuessAttempt = { kind: GuessKind; subject: string; source: string };

/** The wait after the n-th failure in a row (counted within the window): none for the first `free`. */
export function delayAfterFailures(failures: number, free: number): number {
  if (failures <= free) return 0;
  const doublings = Math.min(failures - free - 1, 30);
  return Math.min(FIRST_DELAY_MS * 2 ** doublings, MAX_DELAY_MS);
}

/** Whole seconds still to wait (rounded up) given the keys' blockedUntil times, 0 when none waits. */
export function secondsToWait(blockedUntil: Date[], nowMs: number): number {
  const latest = Math.max(nowMs, ...blockedUntil.map((d) => d.getTime()));
  return Math.ceil((latest - nowMs) / 1000);
}

/** A refusal while a key waits; `retryAfterS` goes to Retry-After or the form. */
export class TooManyAttempts extends AppError {
  readonly retryAfterS: number;
  constructor(retryAfterS: number) {
    super("TooManyAttempts", `Too many failed attempts: try again in ${retryAfterS} s.`);
    this.retryAfterS = retryAfterS;
  }
}

export const isTooManyAttempts = (e: unknown): e is TooManyAttempts => e instanceof TooManyAttempts;

const cut = (value: string) => value.slice(0, MAX_KEY_LENGTH);
const subjectKey = (kind: GuessKind, subject: string) =>
  cut(`subject:${kind === "member" ? subject.trim().toLowerCase() : subject}`);
const keysOf = (a: GuessAttempt) => [
  { key: subjectKey(a.kind, a.subject), free: FREE_FAILURES.subject },
  { key: cut(`source:${a.source}`), free: FREE_FAILURES.source },
];

type Deps = { db: DbClient; clock: Clock };

/** What this process last read of a key: whether it has a row, its wait, when read (workbench time). */
type Seen = { exists: boolean; blockedUntilMs: number; readAtMs: number };
/**
 * A process reads a key's row at most once a second (decision 0051): the token endpoint's happy path stays off the
 * database (the verified-secret cache took it off). Failures and clears made here are seen at
 * once; a wait set by another process on the same database, within the second.
 */
const FRESH_MS = 1_000;
const SEEN_LIMIT = 10_000;
const seenByDb = new WeakMap<DbClient, Map<string, Seen>>();

function seenOf(db: DbClient): Map<string, Seen> {
  let seen = seenByDb.get(db);
  if (!seen) seenByDb.set(db, (seen = new Map()));
  return seen;
}

function remember(db: DbClient, key: string, state: Seen): void {
  const seen = seenOf(db);
  seen.delete(key);
  if (seen.size >= SEEN_LIMIT) seen.delete(seen.keys().next().value!);
  seen.set(key, state);
}

/** Rows are keyed by (kind, key): the cache likewise (a source has a key of each kind). */
const seenKey = (kind: GuessKind, key: string) => `${kind} ${key}`;

const isFresh = (state: Seen | undefined, nowMs: number): state is Seen =>
  state !== undefined && nowMs >= state.readAtMs && nowMs - state.readAtMs < FRESH_MS;

/** The keys' states: from this process's last read when fresh, else one read of both rows. */
async function readKeys(deps: Deps, kind: GuessKind, keys: string[], nowMs: number): Promise<Seen[]> {
  const seen = seenOf(deps.db);
  const known = keys.map((key) => seen.get(seenKey(kind, key)));
  if (known.every((state) => isFresh(state, nowMs))) return known;
  const rows = await deps.db.guessThrottle.findMany({
    where: { kind, key: { in: keys } },
    select: { key: true, blockedUntil: true },
  });
  return keys.map((key) => {
    const row = rows.find((r) => r.key === key);
    const state = { exists: row !== undefined, blockedUntilMs: row?.blockedUntil.getTime() ?? 0, readAtMs: nowMs };
    remember(deps.db, seenKey(kind, key), state);
    return state;
  });
}

/**
 * Throws TooManyAttempts while the subject or the source waits; else says whether the subject has
 * failures counted (only then does a success need to clear them: no write on the usual path).
 */
export async function refuseWhileWaiting(deps: Deps, attempt: GuessAttempt): Promise<{ subjectCounted: boolean }> {
  const nowMs = deps.clock.nowMs();
  const [subject, source] = await readKeys(
    deps,
    attempt.kind,
    keysOf(attempt).map((k) => k.key),
    nowMs,
  );
  const wait = secondsToWait(
    [subject!, source!].filter((state) => state.exists).map((state) => new Date(state.blockedUntilMs)),
    nowMs,
  );
  if (wait > 0) throw new TooManyAttempts(wait);
  return { subjectCounted: subject!.exists };
}

/** Counts a wrong secret against the subject and the source (one atomic upsert per key). */
export async function recordFailedGuess(deps: Deps, attempt: GuessAttempt): Promise<void> {
  const now = deps.clock.now();
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  for (const { key, free } of keysOf(attempt)) {
    const [row] = await deps.db.$queryRaw<Array<{ failures: number }>>(Prisma.sql`
      INSERT INTO "GuessThrottle" (kind, key, failures, "lastFailureAt", "blockedUntil")
      VALUES (${attempt.kind}, ${key}, 1, ${now}, ${now})
      ON CONFLICT (kind, key) DO UPDATE SET
        failures = CASE WHEN "GuessThrottle"."lastFailureAt" < ${windowStart} THEN 1
                        ELSE "GuessThrottle".failures + 1 END,
        "lastFailureAt" = ${now}
      RETURNING failures`);
    const delay = delayAfterFailures(row?.failures ?? 1, free);
    if (delay > 0)
      await deps.db.$executeRaw`
        UPDATE "GuessThrottle" SET "blockedUntil" = GREATEST("blockedUntil", ${new Date(now.getTime() + delay)})
        WHERE kind = ${attempt.kind} AND key = ${key}`;
    seenOf(deps.db).delete(seenKey(attempt.kind, key));
  }
}

/** A right secret: the subject starts afresh (its source keeps its count), as an admin's clear. */
export async function recordGoodGuess(deps: { db: DbClient }, attempt: Omit<GuessAttempt, "source">) {
  await clearGuessThrottle(deps, attempt);
}

/** An admin clears a subject's wait (and count); returns whether there was one. */
export async function clearGuessThrottle(
  deps: { db: DbClient },
  attempt: Omit<GuessAttempt, "source">,
): Promise<boolean> {
  const key = subjectKey(attempt.kind, attempt.subject);
  const { count } = await deps.db.guessThrottle.deleteMany({ where: { kind: attempt.kind, key } });
  seenOf(deps.db).delete(seenKey(attempt.kind, key));
  return count > 0;
}

/** Rows whose last failure is a window old (their wait, at most the window, is over too). */
export async function purgeGuessThrottle(deps: Deps): Promise<number> {
  const { count } = await deps.db.guessThrottle.deleteMany({
    where: { lastFailureAt: { lt: new Date(deps.clock.nowMs() - WINDOW_MS) } },
  });
  seenByDb.delete(deps.db);
  return count;
}
