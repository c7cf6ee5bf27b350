// Read-side domain functions accept the client or an open Prisma transaction.
// Changes to an incident go through the aggregate (apply-change.ts,
// create-incident.ts), which opens its own transaction on the pg pool.
import type { DbClient, Prisma } from "../platform/db/client.ts";

export type Db = DbClient | Prisma.TransactionClient;

/** Incident and call ids are UUIDs (@db.Uuid): anything else cannot exist, so the caller answers 404 without asking the database. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);
