// Transactions on the pg pool under Prisma, for the paths that carry the load
// (the incident aggregate and the webhook planner in every inbound change).
//
// Why not prisma.$transaction: measured here (2 cores, 32 concurrent callers,
// the same four statements): Prisma's interactive transaction costs 1.0–1.9 ms
// of CPU per transaction (query compiler, interpreter, tracing spans), the same
// statements on the pg pool 0.15–0.24 ms. The inbound API's hot path went from
// ~200 to the figures in docs/decisions/0008 by this alone.
//
// Statements are still Prisma's tagged templates (`Prisma.sql`): bound
// parameters, never string-built SQL; `.text` is their $1, $2 … form.
import { createHash } from "node:crypto";
import type pg from "pg";
import type { Prisma } from "./generated/client.ts";

export type SqlTx = {
  /** The database client the statements run on (the runtime's `db`): what per-database registries are keyed by. */
  client: object;
  /** Rows of one statement (pg's parsers: timestamptz → Date, jsonb → value, int8 → string). */
  query<T>(statement: Prisma.Sql): Promise<T[]>;
  /** Rows affected. */
  execute(statement: Prisma.Sql): Promise<number>;
  /** Runs `fn` once the transaction committed (never after a rollback): events that wake workers. */
  afterCommit(fn: () => void): void;
  /**
   * The transaction's last statement, sent at once and pipelined with COMMIT
   * (one round trip for both); `then` gets its rows after the commit. If it
   * fails, the transaction rolls back and inSqlTransaction throws its error.
   * No statement may follow it.
   */
  finish<T>(statement: Prisma.Sql, then: (rows: T[]) => void): void;
};

// On the client object under a global symbol, not in a module-level map: Next
// bundles app/ separately, so tRPC procedures run a second copy of this module
// with the same client (from the runtime), and must find its pool too.
const POOL = Symbol.for("incident-workbench.sql-pool");
type WithPool = { [POOL]?: pg.Pool };

/**
 * Every statement is a named prepared statement, its name a hash of its text:
 * PostgreSQL parses it once per connection and can reuse its plan. Measured on
 * the inbound hot path (pg_stat_statements, track_planning): planning the lock
 * and record statements cost 0.37 + 0.27 ms per request, as much as executing
 * them. The texts are fixed per call site (values are always parameters, lists
 * are one array parameter), so each connection holds a few dozen statements.
 */
const names = new Map<string, string>();
function prepared(statement: Prisma.Sql): pg.QueryConfig {
  const text = statement.text;
  let name = names.get(text);
  if (!name) {
    name = `wb_${createHash("sha1").update(text).digest("base64url").slice(0, 22)}`;
    if (names.size < 1_000) names.set(text, name);
  }
  return { name, text, values: statement.values };
}

/** Called by createDbClient: the pool its Prisma adapter uses. */
export function registerSqlPool(client: object, pool: pg.Pool) {
  Object.defineProperty(client, POOL, { value: pool, enumerable: false });
}

export function sqlPool(client: object): pg.Pool {
  const pool = (client as WithPool)[POOL];
  if (!pool) throw new Error("This database client was not made by createDbClient: no pg pool behind it.");
  return pool;
}

/** One statement on the pool, outside any transaction (a statement is its own). */
export async function sqlQuery<T>(client: object, statement: Prisma.Sql): Promise<T[]> {
  return (await sqlPool(client).query(prepared(statement))).rows as T[];
}

/**
 * Statements sent in one turn of the event loop leave in one socket write: the
 * connection is corked at the first and uncorked on the next tick, after the
 * caller's promise chain has run (a transaction's BEGIN and first statement,
 * its last statement and COMMIT). The pool is in pg's pipeline mode
 * (client.ts), so each is sent without waiting for the answer to the one
 * before; each still has its own Sync, so PostgreSQL answers each on its own.
 * `connection.stream` is pg's socket; without it statements are just not corked.
 */
const CORKED = Symbol("corked");
type Corkable = pg.PoolClient & { connection?: { stream?: { cork(): void; uncork(): void } }; [CORKED]?: boolean };
function send(connection: Corkable, query: pg.QueryConfig | string): Promise<pg.QueryResult> {
  const stream = connection.connection?.stream;
  if (stream && !connection[CORKED]) {
    connection[CORKED] = true;
    stream.cork();
    process.nextTick(() => {
      connection[CORKED] = false;
      stream.uncork();
    });
  }
  return connection.query(query);
}

type Finishing = { rows: Promise<pg.QueryResult>; then: (rows: never[]) => void };

/**
 * The SqlTx interface without a transaction: every statement is its own
 * (autocommit), each on whichever pool connection is free; the afterCommit
 * callbacks run once `fn` resolved. For the aggregate's optimistic batches
 * (apply-change.ts), whose one write statement checks that nothing changed
 * since its read: no BEGIN, COMMIT or row lock, and no connection held while
 * Node computes the changes. There is no finishing statement to pipeline with
 * a COMMIT: the last statement is sent with `query`.
 */
export async function inAutocommit<T>(client: object, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const pool = sqlPool(client);
  const committed: Array<() => void> = [];
  const tx: SqlTx = {
    client,
    afterCommit: (f) => void committed.push(f),
    query: async <R>(statement: Prisma.Sql) => (await pool.query(prepared(statement))).rows as R[],
    execute: async (statement) => (await pool.query(prepared(statement))).rowCount ?? 0,
    finish: () => {
      throw new Error("No finishing statement outside a transaction: send the last statement with query.");
    },
  };
  const result = await fn(tx);
  for (const f of committed) f();
  return result;
}

/**
 * Runs `fn` in one transaction (READ COMMITTED, like Prisma's). Commits when it
 * resolves (then runs `finish`'s callback and the afterCommit callbacks), rolls
 * back when it throws (and rethrows). A connection whose rollback failed is
 * discarded, not returned to the pool.
 *
 * BEGIN rides with the first statement and COMMIT with the last (`finish`), so
 * the aggregate's change is two round trips instead of four: each one saves
 * the Node process and a PostgreSQL backend a socket write and a wake-up, and
 * the row lock is held for less time (docs/decisions/0008).
 */
export async function inSqlTransaction<T>(client: object, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const connection = (await sqlPool(client).connect()) as Corkable;
  let broken: Error | undefined;
  const committed: Array<() => void> = [];
  let begun: Promise<unknown> | undefined = send(connection, "BEGIN");
  begun.catch(() => {}); // awaited with the first statement (or COMMIT); a rejection before then is not unhandled
  let finishing: Finishing | undefined;
  const run = async (statement: Prisma.Sql) => {
    if (finishing) throw new Error("A statement after the transaction's finishing statement.");
    const result = send(connection, prepared(statement));
    if (begun) {
      const b = begun;
      begun = undefined;
      await Promise.all([b, result]);
    }
    return result;
  };
  const tx: SqlTx = {
    client,
    afterCommit: (f) => void committed.push(f),
    query: async <R>(statement: Prisma.Sql) => (await run(statement)).rows as R[],
    execute: async (statement) => (await run(statement)).rowCount ?? 0,
    finish(statement, then) {
      if (finishing) throw new Error("A transaction has one finishing statement.");
      const rows = send(connection, prepared(statement));
      rows.catch(() => {}); // awaited below; a rejection before then is not unhandled
      finishing = { rows, then: then };
    },
  };
  try {
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      if (finishing) await finishing.rows.catch(() => {});
      throw error;
    }
    const commit = send(connection, "COMMIT");
    const [begin, final, done] = await Promise.allSettled([begun, finishing?.rows, commit]);
    // A failed statement before COMMIT aborts the transaction: PostgreSQL answers COMMIT with ROLLBACK.
    for (const outcome of [begin, final, done]) if (outcome.status === "rejected") throw outcome.reason;
    if (finishing && final.status === "fulfilled") finishing.then(final.value!.rows as never[]);
    for (const f of committed) f();
    return result;
  } catch (error) {
    await connection.query("ROLLBACK").catch((e: Error) => (broken = e));
    throw error;
  } finally {
    connection.release(broken);
  }
}
