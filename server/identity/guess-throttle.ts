// Guessing slowed down (docs/decisions/0051-guessing-slowed-down.md and 0070, OWASP ASVS V6):
// wrong client secrets and wrong member passwords are counted on three keys, each with its own
// free failures within a 15-minute window, then a wait that doubles from 1 s up to 15 min:
//   - the pair (address, account): 5 free. Guessing one account from one address;
//   - the account, from any address: 10 free. Guessing one account from many addresses;
//   - the address, across accounts: 20 free. Guessing many names from one address.
// While the pair waits, every attempt of that pair is refused before the secret is checked, the
// right one included. While the account or the address waits, an attempt is refused too, unless
// it comes from an address the account signed in from before (a trusted pair, 30 days): so an
// attacker behind a shared NAT who sprays names, or who guesses one account from many
// addresses, cannot keep that account's owner out of it from where the owner usually signs in.
// Refusals are not counted. A success clears its pair and trusts it. Rows live in PostgreSQL, so
// every process on one database shares them; the credential purge deletes them in time.
import { Prisma, type DbClient } from "../platform/db/client.ts";
import type { Clock } from "../platform/clock/clock.ts";
import { AppError } from "../platform/errors.ts";

export const FREE_FAILURES = { pair: 5, account: 10, source: 20 } as const;
export const WINDOW_MS = 15 * 60_000;
export const FIRST_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 15 * 60_000;
/** How long a success from an address keeps that address trusted for its account. */
export const TRUST_MS = 30 * 86_400_000;
/** Keys are cut to this length, so a caller's long text cannot grow a row. */
const MAX_KEY_LENGTH = 200;

export type GuessKind = "client" | "member";
export type GuessScope = keyof typeof FREE_FAILURES;
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

/**
 * Which waits refuse an attempt: its pair's always; its account's and its address's unless the
 * pair is trusted (its account signed in from this address before). Seconds to wait, 0 for none.
 */
export function refusingWait(waits: Record<GuessScope, number>, trusted: boolean): number {
  return Math.max(waits.pair, trusted ? 0 : Math.max(waits.account, waits.source));
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
/** A member's name counts case-insensitively (as it signs in); a client id as written. */
const subjectOf = (a: Pick<GuessAttempt, "kind" | "subject">) =>
  cut(a.kind === "member" ? a.subject.trim().toLowerCase() : a.subject);
const pairOf = (a: GuessAttempt) => cut(`${a.source} ${subjectOf(a)}`);

type Key = { scope: GuessScope; key: string; subject: string | null; source: string | null };
function keysOf(a: GuessAttempt): Record<GuessScope, Key> {
  const subject = subjectOf(a);
  return {
    pair: { scope: "pair", key: cut(`pair:${pairOf(a)}`), subject, source: a.source },
    account: { scope: "account", key: cut(`account:${subject}`), subject, source: null },
    source: { scope: "source", key: cut(`source:${a.source}`), subject: null, source: a.source },
  };
}

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
/** A success re-writes its pair's trust at most this often per process: the happy path stays off the database. */
const TRUST_REFRESH_MS = 3_600_000;
type Memory = { seen: Map<string, Seen>; trustWrittenMs: Map<string, number> };
const memoryByDb = new WeakMap<DbClient, Memory>();

function memoryOf(db: DbClient): Memory {
  let memory = memoryByDb.get(db);
  if (!memory) memoryByDb.set(db, (memory = { seen: new Map(), trustWrittenMs: new Map() }));
  return memory;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  if (map.size >= SEEN_LIMIT) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** Rows are keyed by (kind, key): the cache likewise (an address has a key of each kind). */
const seenKey = (kind: GuessKind, key: string) => `${kind} ${key}`;

const isFresh = (state: Seen | undefined, nowMs: number): state is Seen =>
  state !== undefined && nowMs >= state.readAtMs && nowMs - state.readAtMs < FRESH_MS;

/** The keys' states: from this process's last read when fresh, else one read of their rows. */
async function readKeys(deps: Deps, kind: GuessKind, keys: string[], nowMs: number): Promise<Seen[]> {
  const { seen } = memoryOf(deps.db);
  const known = keys.map((key) => seen.get(seenKey(kind, key)));
  if (known.every((state) => isFresh(state, nowMs))) return known;
  const rows = await deps.db.guessThrottle.findMany({
    where: { kind, key: { in: keys } },
    select: { key: true, blockedUntil: true },
  });
  return keys.map((key) => {
    const row = rows.find((r) => r.key === key);
    const state = { exists: row !== undefined, blockedUntilMs: row?.blockedUntil.getTime() ?? 0, readAtMs: nowMs };
    remember(seen, seenKey(kind, key), state);
    return state;
  });
}

async function isTrusted(deps: Deps, attempt: GuessAttempt, nowMs: number): Promise<boolean> {
  const row = await deps.db.guessTrust.findUnique({
    where: { kind_key: { kind: attempt.kind, key: pairOf(attempt) } },
    select: { lastSuccessAt: true },
  });
  return row !== null && row.lastSuccessAt.getTime() > nowMs - TRUST_MS;
}

/**
 * Throws TooManyAttempts while a key that refuses this attempt waits (refusingWait); else says
 * whether its pair has failures counted (only then does a success need to clear them).
 */
export async function refuseWhileWaiting(deps: Deps, attempt: GuessAttempt): Promise<{ pairCounted: boolean }> {
  const nowMs = deps.clock.nowMs();
  const keys = keysOf(attempt);
  const [pair, account, source] = await readKeys(
    deps,
    attempt.kind,
    [keys.pair.key, keys.account.key, keys.source.key],
    nowMs,
  );
  const waitOf = (state: Seen) => (state.exists ? secondsToWait([new Date(state.blockedUntilMs)], nowMs) : 0);
  const waits = { pair: waitOf(pair!), account: waitOf(account!), source: waitOf(source!) };
  // The trust is read only while the account or the address waits: rarely, and never on the happy path.
  const trusted =
    waits.pair === 0 && (waits.account > 0 || waits.source > 0) && (await isTrusted(deps, attempt, nowMs));
  const wait = refusingWait(waits, trusted);
  if (wait > 0) throw new TooManyAttempts(wait);
  return { pairCounted: pair!.exists };
}

/** Counts a wrong secret against its pair, its account and its address (one atomic upsert per key). */
export async function recordFailedGuess(deps: Deps, attempt: GuessAttempt): Promise<void> {
  const now = deps.clock.now();
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  for (const { scope, key, subject, source } of Object.values(keysOf(attempt))) {
    const [row] = await deps.db.$queryRaw<Array<{ failures: number }>>(Prisma.sql`
      INSERT INTO "GuessThrottle" (kind, key, subject, source, failures, "lastFailureAt", "blockedUntil")
      VALUES (${attempt.kind}, ${key}, ${subject}, ${source}, 1, ${now}, ${now})
      ON CONFLICT (kind, key) DO UPDATE SET
        failures = CASE WHEN "GuessThrottle"."lastFailureAt" < ${windowStart} THEN 1
                        ELSE "GuessThrottle".failures + 1 END,
        "lastFailureAt" = ${now}
      RETURNING failures`);
    const delay = delayAfterFailures(row?.failures ?? 1, FREE_FAILURES[scope]);
    if (delay > 0)
      await deps.db.$executeRaw`
        UPDATE "GuessThrottle" SET "blockedUntil" = GREATEST("blockedUntil", ${new Date(now.getTime() + delay)})
        WHERE kind = ${attempt.kind} AND key = ${key}`;
    memoryOf(deps.db).seen.delete(seenKey(attempt.kind, key));
  }
}

/**
 * A right secret: its pair starts afresh, and the address is trusted for the account (written at
 * most hourly per process). The account's and the address's counts stay: one valid account must
 * not reset the guessing of all the others.
 */
export async function recordGoodGuess(deps: Deps, attempt: GuessAttempt, options: { pairCounted: boolean }) {
  const keys = keysOf(attempt);
  const memory = memoryOf(deps.db);
  if (options.pairCounted) {
    await deps.db.guessThrottle.deleteMany({ where: { kind: attempt.kind, key: keys.pair.key } });
    memory.seen.delete(seenKey(attempt.kind, keys.pair.key));
  }
  const nowMs = deps.clock.nowMs();
  const trustKey = seenKey(attempt.kind, pairOf(attempt));
  const written = memory.trustWrittenMs.get(trustKey);
  if (written !== undefined && nowMs >= written && nowMs - written < TRUST_REFRESH_MS) return;
  const now = new Date(nowMs);
  await deps.db.guessTrust.upsert({
    where: { kind_key: { kind: attempt.kind, key: pairOf(attempt) } },
    create: { kind: attempt.kind, key: pairOf(attempt), lastSuccessAt: now },
    update: { lastSuccessAt: now },
  });
  remember(memory.trustWrittenMs, trustKey, nowMs);
}

/** What an admin clears: an account's wait (with its pairs), or an address's (with its pairs). */
export type GuessThrottleTarget = { kind: GuessKind } & ({ subject: string } | { source: string });

/** An admin ends the waits and counts of an account or an address; returns whether there were any. */
export async function clearGuessThrottle(deps: { db: DbClient }, target: GuessThrottleTarget): Promise<boolean> {
  const where =
    "subject" in target
      ? { kind: target.kind, subject: subjectOf({ kind: target.kind, subject: target.subject }) }
      : { kind: target.kind, source: cut(target.source) };
  const { count } = await deps.db.guessThrottle.deleteMany({ where });
  memoryOf(deps.db).seen.clear();
  return count > 0;
}

export type GuessThrottleView = {
  kind: GuessKind;
  scope: GuessScope;
  subject: string | null;
  source: string | null;
  failures: number;
  freeFailures: number;
  lastFailureAt: Date;
  /** Seconds still to wait, 0 when the key only counts. */
  waitS: number;
};

/** Every key counting failures in its window (at most `limit`), waiting ones first, then by failures, for the admin. */
export async function listGuessThrottles(deps: Deps, options: { limit?: number } = {}): Promise<GuessThrottleView[]> {
  const nowMs = deps.clock.nowMs();
  const rows = await deps.db.guessThrottle.findMany({
    where: { lastFailureAt: { gte: new Date(nowMs - WINDOW_MS) } },
    orderBy: [{ blockedUntil: "desc" }, { failures: "desc" }],
    take: options.limit ?? 200,
  });
  const views = rows.map((row): GuessThrottleView => {
    const scope = row.key.slice(0, row.key.indexOf(":")) as GuessScope;
    return {
      kind: row.kind as GuessKind,
      scope,
      subject: row.subject,
      source: row.source,
      failures: row.failures,
      freeFailures: FREE_FAILURES[scope],
      lastFailureAt: row.lastFailureAt,
      waitS: secondsToWait([row.blockedUntil], nowMs),
    };
  });
  // Waiting first (longest wait first), then the busiest guessers.
  return views.sort((a, b) => b.waitS - a.waitS || b.failures - a.failures);
}

/** Rows whose last failure is a window old (their wait, at most the window, is over too), and trust past its time. */
export async function purgeGuessThrottle(deps: Deps): Promise<number> {
  const nowMs = deps.clock.nowMs();
  const { count } = await deps.db.guessThrottle.deleteMany({
    where: { lastFailureAt: { lt: new Date(nowMs - WINDOW_MS) } },
  });
  const trust = await deps.db.guessTrust.deleteMany({ where: { lastSuccessAt: { lt: new Date(nowMs - TRUST_MS) } } });
  memoryByDb.delete(deps.db);
  return count + trust.count;
}
