// Events waiting per integration (pending or being delivered), for workbench_lane_backlog at scrape
// time (docs/observability.md). One statement, bounded by the number of integrations: the count
// reads the unfinished lanes' partial index (WebhookDelivery_lane_unfinished_idx), never the
// finished rows, and every integration appears, with 0 when nothing waits. Database-wide: any
// process's scrape sees every process's backlog.
import { Prisma, type DbClient } from "../../platform/db/client.ts";

export async function countLaneBacklog(db: DbClient): Promise<Array<{ integration: string; waiting: number }>> {
  const rows = await db.$queryRaw<Array<{ integration: string; waiting: bigint }>>(Prisma.sql`
    SELECT i.key AS integration, COALESCE(w.waiting, 0) AS waiting
    FROM "Integration" i
    LEFT JOIN (
      SELECT "integrationKey", count(*) AS waiting FROM "WebhookDelivery"
      WHERE state IN ('pending', 'delivering') GROUP BY "integrationKey"
    ) w ON w."integrationKey" = i.key
    ORDER BY i.key`);
  return rows.map((r) => ({ integration: r.integration, waiting: Number(r.waiting) }));
}
