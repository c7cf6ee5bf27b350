// The one database driver: Prisma 6 (query compiler, no engine binary) over
// @prisma/adapter-pg, for the embedded server and any external PostgreSQL alike.
//
// Prisma and the hot paths share ONE pg.Pool: the adapter is handed the pool,
// and sql-transaction.ts runs the incident aggregate's transaction on it
// directly (see there for the measured reason).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";
import { PatientPool } from "./patient-pool.ts";
import { registerSqlPool } from "./sql-transaction.ts";

export type DbClient = PrismaClient;
export { Prisma } from "./generated/client.ts";

/**
 * How long a query waits for a connection (a new one, or a free one of the pool) before it fails;
 * a wait on a pool that is busy rather than stuck waits again (patient-pool.ts).
 */
export const POOL_CONNECT_TIMEOUT_MS = 3_000;

export function createDbClient(databaseUrl: string, options: { poolSize?: number } = {}): DbClient {
  // pipeline: a transaction's BEGIN and first statement, and its last statement and COMMIT, go out
  // together (sql-transaction.ts); every other caller awaits each query, so nothing else changes.
  // connectionTimeoutMillis: while the database is out of reach a query fails after this long
  // (waiting for a pooled connection included, unless the pool is only busy: patient-pool.ts)
  // instead of hanging; the surfaces answer 503 (database-unavailable.ts). keepAlive: a connection
  // cut without a FIN is noticed.
  const pool = new PatientPool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 20,
    pipeline: true,
    connectionTimeoutMillis: POOL_CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection's error (the server restarted, say) must not crash the
  // process: the pool drops that connection and the next query opens another.
  pool.on("error", () => {});
  // Nor may a checked-out one's. pg-pool listens for errors only while a connection is idle; one
  // lent out (inside a transaction between two statements, the pruner between batches) that the
  // server terminates ("terminating connection due to unexpected postmaster exit") would emit an
  // 'error' nobody handles. The connection is then not queryable: its next statement fails as an
  // outage (database-unavailable.ts) and the pool discards it on release.
  pool.on("connect", (connection) => connection.on("error", () => {}));
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  registerSqlPool(client, pool);
  return client;
}
