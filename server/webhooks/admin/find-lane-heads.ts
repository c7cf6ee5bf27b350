// The head (oldest unfinished event) of each lane a page of the inspector shows, so an event queued
// behind a failing head can say "waiting behind <head>" (spec, Delivery rule 2: a lane is strictly
// sequential). ONE statement for the whole page, not one per row: each lane's head is the first
// entry of the partial index over unfinished rows (integrationKey, incidentId, id), so a lane costs
// one index probe. Asked only for lanes with an unattempted pending row: an attempted pending row is
// its lane's head by construction (only heads are sent).
import { Prisma, type DbClient } from "../../platform/db/client.ts";

export type LaneRef = { integration: string; incidentId: string };
export const laneOf = (d: LaneRef) => `${d.integration} ${d.incidentId}`;

/** lane (laneOf) → the head's Service-Request-Id, for the lanes given that have an unfinished event. */
export async function findLaneHeads(db: DbClient, lanes: LaneRef[]): Promise<Map<string, string>> {
  const unique = [...new Map(lanes.map((l) => [laneOf(l), l])).values()];
  if (!unique.length) return new Map();
  const rows = await db.$queryRaw<Array<{ integration: string; incidentId: string; requestId: string }>>(Prisma.sql`
    SELECT l.k AS integration, l.i::text AS "incidentId", h."requestId"::text AS "requestId"
    FROM unnest(${unique.map((l) => l.integration)}::text[], ${unique.map((l) => l.incidentId)}::uuid[]) AS l(k, i)
    CROSS JOIN LATERAL (
      SELECT d."requestId" FROM "WebhookDelivery" d
      WHERE d."integrationKey" = l.k AND d."incidentId" = l.i AND d.state IN ('pending', 'delivering')
      ORDER BY d.id LIMIT 1
    ) h`);
  return new Map(rows.map((r) => [laneOf(r), r.requestId]));
}

/** The head an event waits behind: a pending, never attempted event that is not its lane's head. */
export function waitingBehindOf(
  d: LaneRef & { requestId: string; state: string; attempts: unknown[] },
  heads: Map<string, string>,
): string | null {
  if (d.state !== "pending" || d.attempts.length) return null;
  const head = heads.get(laneOf(d));
  return head && head !== d.requestId ? head : null;
}

/** The lanes worth asking about: those of the pending, never attempted events among `rows`. */
export const lanesToAsk = (rows: Array<LaneRef & { state: string; attempts: unknown[] }>) =>
  rows.filter((r) => r.state === "pending" && !r.attempts.length);
