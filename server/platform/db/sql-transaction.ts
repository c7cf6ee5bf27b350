// Transactions on the pg pool under Prisma, for the paths that carry the load
// (the incident aggregate and the webhook planner in every inbound change).
//
// Why not prisma.$transaction: measured here (2 cores, 32 concurrent callers,
// the same four statements): Prisma's interactive transaction costs 1.0–1.9 ms
// of CPU per transaction (query compiler, interpreter, tracing spans), the same
// statements on the pg pool 0.15–0.24 ms. The inbound API's hot path went from
// ~200 to the figures in README "Measured" by this alone.
//
// Statements are still Prisma's tagged templates (`Prisma.sql`): bound
// parameters, never string-built SQL; `.text` is their $1, $2 … form.
import { createHash } from "node:crypto";
import type pg from "pg";
import type { Prisma } from "./generated/client.ts";

export type SqlTx = {
  /** Rows of one statement (pg's parsers: timestamptz → Date, jsonb → value, int8 → string). */
  query<T>(statement: Prisma.Sql): Promise<T[]>;
  /** Rows affected. */
  execute(statement: Prisma.Sql): Promise<number>;
  /** Runs `fn` once the transaction committed (never after a rollback): events that wake workers. */
  afterCommit(fn: () => void): void;
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
  return { name, text, values: statement.values as unknown[] };
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

function wrap(connection: pg.PoolClient, committed: Array<() => void>): SqlTx {
  return {
    afterCommit: (fn) => void committed.push(fn),
    async query<T>(statement: Prisma.Sql) {
      return (await connection.query(prepared(statement))).rows as T[];
    },
    async execute(statement: Prisma.Sql) {
      return (await connection.query(prepared(statement))).rowCount ?? 0;
    },
  };
}

/**
 * Runs `fn` in one transaction (READ COMMITTED, like Prisma's). Commits when it
 * resolves (then runs the afterCommit callbacks), rolls back when it throws (and rethrows). A connection whose
 * rollback failed is discarded, not returned to the pool.
 */
export async function inSqlTransaction<T>(client: object, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const connection = await sqlPool(client).connect();
  let broken: Error | undefined;
  try {
    await connection.query("BEGIN");
    const committed: Array<() => void> = [];
    try {
      const result = await fn(wrap(connection, committed));
      await connection.query("COMMIT");
      for (const f of committed) f();
      return result;
    } catch (error) {
      await connection.query("ROLLBACK").catch((e: Error) => (broken = e));
      throw error;
    }
  } finally {
    connection.release(broken);
  }
}
