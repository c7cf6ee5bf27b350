// What the Admin page shows of retention (docs/retention.md): the setting, the last run of the pruner
// and what it pruned, and per group of tables its rows and its disk (pg_total_relation_size: heap,
// TOAST and indexes). Admin-only through its router (server/api/routers/retention.ts).
import { Prisma, type DbClient } from "../../platform/db/client.ts";
import { sqlQuery } from "../../platform/db/sql-transaction.ts";
import { readCounts, retentionCutoff, type PrunedCounts } from "./retention-policy.ts";
import { GROUPED_TABLES, STORAGE_GROUPS, type StorageGroup } from "./storage-groups.ts";

/** Rows counted exactly up to this many per group; beyond it the page says "more than". */
export const COUNT_CAP = 100_000;

export type RetentionStatus = {
  retentionDays: number;
  /** What a run now would prune before (workbench time); null when RETENTION_DAYS=0. */
  cutoff: string | null;
  lastRun: {
    startedAt: string;
    finishedAt: string | null;
    cutoff: string;
    pruned: PrunedCounts;
    prunedTotal: PrunedCounts;
    error: string | null;
  } | null;
  groups: Array<Pick<StorageGroup, "id" | "label" | "policy"> & { bytes: number; rows: number; rowsCapped: boolean }>;
  /** The rest of the database: directory, settings, PostgreSQL's own catalog. */
  otherBytes: number;
  databaseBytes: number;
  /** Rows are counted exactly up to this many per group. */
  countCap: number;
};

type SizeRow = { table: string; bytes: string };
type CountRow = Record<StorageGroup["id"], number>;

const capped = (table: Prisma.Sql) =>
  Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM ${table} LIMIT ${COUNT_CAP + 1}::int) s)`;

export async function readRetentionStatus(options: { db: DbClient; nowMs: number; retentionDays: number }) {
  const { db } = options;
  const [sizes, [counts], [database], run] = await Promise.all([
    sqlQuery<SizeRow>(
      db,
      Prisma.sql`
      SELECT c.relname::text AS "table", pg_total_relation_size(c.oid)::text AS bytes
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname::text = ANY(${GROUPED_TABLES}::text[])`,
    ),
    sqlQuery<CountRow>(
      db,
      Prisma.sql`SELECT
      ${capped(Prisma.sql`"WebhookDelivery"`)}::int AS deliveries,
      ${capped(Prisma.sql`"ReceiverRecord"`)}::int AS "receiverRecords",
      ${capped(Prisma.sql`"ConformanceRun"`)}::int AS "conformanceRuns",
      (${capped(Prisma.sql`"SigninToken"`)} + ${capped(Prisma.sql`"AuthorizationCode"`)}
        + ${capped(Prisma.sql`"RefreshToken"`)} + ${capped(Prisma.sql`"PortalSession"`)}
        + ${capped(Prisma.sql`"WorkbenchSession"`)} + ${capped(Prisma.sql`"GuessThrottle"`)})::int AS "signInArtefacts",
      ${capped(Prisma.sql`"Incident"`)}::int AS incidents,
      ${capped(Prisma.sql`"WebhookLane"`)}::int AS lanes,
      ${capped(Prisma.sql`"ReceiverIncident"`)}::int AS replicas`,
    ),
    sqlQuery<{ bytes: string }>(db, Prisma.sql`SELECT pg_database_size(current_database())::text AS bytes`),
    db.retentionRun.findUnique({ where: { id: 1 } }),
  ]);
  const bytesOf = new Map(sizes.map((s) => [s.table, Number(s.bytes)]));
  const groups = STORAGE_GROUPS.map((g) => {
    const rows = counts?.[g.id] ?? 0;
    const bytes = g.tables.reduce((sum, t) => sum + (bytesOf.get(t) ?? 0), 0);
    return { id: g.id, label: g.label, policy: g.policy, bytes, rows, rowsCapped: rows > COUNT_CAP };
  });
  const databaseBytes = Number(database?.bytes ?? 0);
  const cutoff = retentionCutoff(options.nowMs, options.retentionDays);
  return {
    retentionDays: options.retentionDays,
    cutoff: cutoff?.toISOString() ?? null,
    lastRun: run && {
      startedAt: run.startedAt.toISOString(),
      finishedAt: run.finishedAt?.toISOString() ?? null,
      cutoff: run.cutoff.toISOString(),
      pruned: readCounts(run.pruned),
      prunedTotal: readCounts(run.prunedTotal),
      error: run.error,
    },
    groups,
    otherBytes: Math.max(0, databaseBytes - groups.reduce((sum, g) => sum + g.bytes, 0)),
    databaseBytes,
    countCap: COUNT_CAP,
  } satisfies RetentionStatus;
}
