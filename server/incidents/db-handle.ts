// Domain functions accept either the client or an open transaction, so the
// simulator and the dashboard can compose several changes into one commit.
import type { DbClient, Prisma } from "../platform/db/client.ts";

export type Db = DbClient | Prisma.TransactionClient;

/** Runs `fn` in `db`'s open transaction, or opens one when given the client. */
export function inTransaction<T>(db: Db, fn: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  if ("$transaction" in db) return (db as DbClient).$transaction(fn, { timeout: 15_000, maxWait: 15_000 });
  return fn(db);
}

/** Incident and call ids are UUIDs (@db.Uuid): anything else cannot exist, so the caller answers 404 without asking the database. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);
