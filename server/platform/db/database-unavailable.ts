// The one place that tells a database outage from any other failure (docs/decisions/0055): a
// connection refused, reset or timed out, the server shutting down or starting up, the pool's
// connect timeout, a connection cut mid-query. Each surface renders such a failure as its own 503
// with Retry-After (DatabaseUnavailable in the error table), never a 500, and the workers back off
// and note it once per outage (outage-log.ts).
import { AppError } from "../errors.ts";

/** Seconds a client is told to wait (Retry-After): about what an embedded restart or a failover takes. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Node's socket errors of a connection that cannot be made or was cut. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
]);
/** PostgreSQL's: admin_shutdown, crash_shutdown, cannot_connect_now (starting up, shutting down, recovery). */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03"]);
/** Prisma's: can't reach the server, timed out reaching it, the server closed the connection. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017"]);
/** adapter-pg's kinds for the socket errors above. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
/** pg's own errors carry no code: a cut connection, the pool's connect timeout, a client that died. */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Connection terminated due to connection timeout|not queryable|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to (administrator command|unexpected postmaster exit)|server closed the connection unexpectedly|Can't reach database server|Server has closed the connection/i;

type Node = { code?: unknown; kind?: unknown; originalCode?: unknown; syscall?: unknown; message?: unknown };

function isOutageNode(node: Node): boolean {
  const code =
    typeof node.code === "string" ? node.code : typeof node.originalCode === "string" ? node.originalCode : "";
  if (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || PRISMA_CODES.has(code) || code.startsWith("08")) return true;
  // The embedded server's Unix socket is gone while it restarts: `connect ENOENT …/.s.PGSQL.<port>`.
  if (code === "ENOENT" && node.syscall === "connect") return true;
  if (typeof node.kind === "string" && ADAPTER_KINDS.has(node.kind)) return true;
  return typeof node.message === "string" && MESSAGES.test(node.message);
}

/** Whether `error` (or what it wraps: `cause`, Prisma's driver adapter error, an AggregateError's errors) is an outage. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && seen.size < 16) {
    const node = queue.shift();
    if (!node || typeof node !== "object" || seen.has(node)) continue;
    seen.add(node);
    if (node instanceof AppError) return node.code === "DatabaseUnavailable";
    if (isOutageNode(node)) return true;
    const n = node as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
    queue.push(n.cause, n.meta?.driverAdapterError);
    if (Array.isArray(n.errors)) queue.push(...n.errors.slice(0, 4));
  }
  return false;
}

/** The typed error every surface renders for an outage. */
export const databaseUnavailable = (cause?: unknown) =>
  Object.assign(
    new AppError("DatabaseUnavailable", "The database is not reachable right now; retry in a few seconds."),
    cause === undefined ? {} : { cause },
  );

/** `error` as DatabaseUnavailable when it is an outage, else undefined. */
export function asDatabaseUnavailable(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error.code === "DatabaseUnavailable" ? error : undefined;
  return isDatabaseUnavailable(error) ? databaseUnavailable(error) : undefined;
}
