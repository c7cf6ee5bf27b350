// What the outbox's statements share about lanes. A lane (integration, incident) is strictly
// sequential: its head is its oldest unfinished row (pending or delivering), and only a head is ever
// claimed, by a claim (delivery/claim-deliveries.ts), by the planning write for an idle lane
// (planning/write-planned-deliveries.ts, decision 0030) or behind a delivered head by its record
// (delivery/record-outcome.ts, decisions 0031 and 0042).
import { Prisma } from "../../platform/db/client.ts";

/**
 * How many of a lane's next events a delivered event's record claims: the one that leaves next and
 * those the worker keeps behind it. Kept ahead, a lane's next event is claimed a few records before
 * its turn: with one kept ahead, a record slower than the attempt beside it (a WAL flush under load)
 * left the next event unclaimed at that attempt's end in about 40 % of a busy lane's attempts.
 */
export const LANE_CLAIM_DEPTH = 4;

/**
 * The first unfinished row at or after the lane (`ik`, `inc`) in the lane index (the partial index
 * over unfinished rows on integrationKey, incidentId, id), selecting `columns` of it (alias `p`): the
 * lane's head when it belongs to the lane, else the lane has no unfinished row. A scalar subquery,
 * evaluated row by row (never turned into a join over the whole lane index), written as a row
 * comparison so that only the lane index can serve it: as min(id) with equalities, the planner took
 * the (incidentId, id) index once a long history was analysed, and stepped over every delivered row
 * of the incident (72 ms a claim with 100,000 earlier deliveries).
 */
export const firstUnfinishedFrom = (ik: Prisma.Sql, inc: Prisma.Sql, columns: Prisma.Sql) =>
  Prisma.sql`(SELECT ${columns} FROM "WebhookDelivery" p
                    WHERE p.state IN ('pending', 'delivering') AND (p."integrationKey", p."incidentId") >= (${ik}, ${inc})
                    ORDER BY p."integrationKey", p."incidentId", p.id LIMIT 1)`;
