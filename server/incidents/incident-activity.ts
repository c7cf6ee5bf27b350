// What a dispatcher's incident list shows beside each row: when the incident last changed and
// where the caller was last seen. One statement for a page of incidents, so the list (polled every
// second) costs one round trip more, not one per row.
import { Prisma } from "../platform/db/client.ts";
import type { Db } from "./db-handle.ts";
import type { TLocation } from "./snapshot.schema.ts";

export type IncidentActivity = {
  /** The producedAt of the incident's latest change record (workbench clock). */
  lastUpdateAtUtc: string | null;
  /** The current position captured last, of any source (a replaced track's positions are not current). */
  latestLocation: TLocation | null;
};

type Row = { id: string; lastUpdateAt: Date | null; latest: TLocation | null };

export async function readIncidentActivity(options: {
  db: Db;
  incidentIds: string[];
}): Promise<Map<string, IncidentActivity>> {
  if (options.incidentIds.length === 0) return new Map();
  // Latest by capture time, not by arrival: an AML fix that arrives after the app's newer one is
  // not where the caller is now. Ties (one transaction's positions) go to the last added.
  const rows = await options.db.$queryRaw<Row[]>(Prisma.sql`
    SELECT i.id::text AS id,
           (SELECT c."producedAt" FROM "IncidentChange" c
             WHERE c."incidentId" = i.id AND c.seq = i."lastSeq") AS "lastUpdateAt",
           (SELECT p.location FROM "IncidentPosition" p
             WHERE p."incidentId" = i.id AND p."replacedSeq" IS NULL
             ORDER BY (p.location->>'capturedAtUtc')::timestamptz DESC, p.id DESC LIMIT 1) AS latest
    FROM "Incident" i
    WHERE i.id = ANY(${options.incidentIds}::uuid[])`);
  return new Map(
    rows.map((r) => [r.id, { lastUpdateAtUtc: r.lastUpdateAt?.toISOString() ?? null, latestLocation: r.latest }]),
  );
}

/**
 * Most recent activity first: a change to the incident or a caller's chat message, whichever came
 * last. Sorted after the read (the newest 200 by creation): the workbench's lists are short, and
 * the incident row keeps no activity time of its own to sort on in SQL. Pure, so it is unit-tested.
 */
export function sortByActivity<
  R extends { id: string; lastUpdateAtUtc: string; lastCallerMessageAtUtc: string | null },
>(rows: R[]): R[] {
  const at = (r: R) => Math.max(Date.parse(r.lastUpdateAtUtc), Date.parse(r.lastCallerMessageAtUtc ?? "") || 0);
  return [...rows].sort((a, b) => at(b) - at(a) || a.id.localeCompare(b.id));
}
