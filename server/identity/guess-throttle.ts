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

/**
 * Throws TooManyAttempts while the subject or the source waits; else says whether the subject has
 * failures counted (only then does a success need to clear them: no write on the usual path).
 */
export async function refuseWhileWaiting(deps: Deps, attempt: GuessAttempt): Promise<{ subjectCounted: boolean }> {
  const subject = subjectKey(attempt.kind, attempt.subject);
  const rows = await deps.db.guessThrottle.findMany({
    where: { kind: attempt.kind, key: { in: keysOf(attempt).map((k) => k.key) } },
    select: { key: true, blockedUntil: true },
  });
  const wait = secondsToWait(
    rows.map((r) => r.blockedUntil),
    deps.clock.nowMs(),
  );
  if (wait > 0) throw new TooManyAttempts(wait);
  return { subjectCounted: rows.some((r) => r.key === subject) };
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
  const { count } = await deps.db.guessThrottle.deleteMany({
    where: { kind: attempt.kind, key: subjectKey(attempt.kind, attempt.subject) },
  });
  return count > 0;
}

/** Rows whose last failure is a window old (their wait, at most the window, is over too). */
export async function purgeGuessThrottle(deps: Deps): Promise<number> {
  const { count } = await deps.db.guessThrottle.deleteMany({
    where: { lastFailureAt: { lt: new Date(deps.clock.nowMs() - WINDOW_MS) } },
  });
  return count;
}
