// One batch of the retention pruner per statement (docs/retention.md says what each kind keeps).
// Each statement is its own short transaction on the pruner's connection; the cutoff is a bound
// parameter of workbench time (CONTRIBUTING.md, 'One clock'). SQL that PostgreSQL 15 and 18 accept.
//
// Deliveries and receiver records are walked in id order over their primary key: ids follow
// production, so a run reads the rows it deletes and one page more, and needs no index of its own
// on the write path (docs/decisions/0057). The other tables are small; they are deleted by key
// among the rows the age condition selects, the condition repeated outside so a row changed since
// the select is re-checked.
import { Prisma } from "../../platform/db/client.ts";
import { keyedGoesOn, walkGoesOn, type RetentionKind } from "./retention-policy.ts";

export type Query = <T>(statement: Prisma.Sql) => Promise<T[]>;
export type BatchOutcome = { pruned: number; goesOn: boolean; after: bigint };
export type PruneStep = {
  kind: RetentionKind;
  table: string;
  batch: (query: Query, cutoff: Date, rows: number, after: bigint) => Promise<BatchOutcome>;
};

type WalkRow = { lastId: string | null; rows: number; older: number; pruned: number };

function walked(row: WalkRow | undefined, rows: number, after: bigint): BatchOutcome {
  if (!row) return { pruned: 0, goesOn: false, after };
  return {
    pruned: row.pruned,
    goesOn: walkGoesOn(row, rows),
    after: row.lastId === null ? after : BigInt(row.lastId),
  };
}

/**
 * A delivery is pruned once it is finished (delivered, expired or superseded) before the cutoff; its
 * attempts go with it (ON DELETE CASCADE). A lane's unfinished rows, its head among them, are never
 * touched: they expire by the rules first.
 */
const deliveries: PruneStep = {
  kind: "deliveries",
  table: "WebhookDelivery",
  async batch(query, cutoff, rows, after) {
    const [row] = await query<WalkRow>(Prisma.sql`
      WITH page AS (
        SELECT id, "producedAt" FROM "WebhookDelivery" WHERE id > ${after}::bigint ORDER BY id LIMIT ${rows}::int
      ), gone AS (
        DELETE FROM "WebhookDelivery" d USING page
        WHERE d.id = page.id AND d.state IN ('delivered', 'expired', 'superseded')
          AND d."finishedAt" < ${cutoff}::timestamptz
        RETURNING d.id
      )
      SELECT (SELECT max(id) FROM page)::text AS "lastId", (SELECT count(*) FROM page)::int AS rows,
             (SELECT count(*) FROM page WHERE "producedAt" < ${cutoff}::timestamptz)::int AS older,
             (SELECT count(*) FROM gone)::int AS pruned`);
    return walked(row, rows, after);
  },
};

/**
 * A receiver record is pruned once received before the cutoff, an accepted one only once applied to
 * its replica (at or below its pair's ReceiverProgress mark). Dedupe is safe: an event received
 * before the cutoff was produced more than a day ago, and is never sent again after its hour.
 * Replicas and progress marks stay, as the incidents they copy do.
 */
const receiverRecords: PruneStep = {
  kind: "receiverRecords",
  table: "ReceiverRecord",
  async batch(query, cutoff, rows, after) {
    const [row] = await query<WalkRow>(Prisma.sql`
      WITH page AS (
        SELECT id, "receivedAt" FROM "ReceiverRecord" WHERE id > ${after}::bigint ORDER BY id LIMIT ${rows}::int
      ), gone AS (
        DELETE FROM "ReceiverRecord" r USING page
        WHERE r.id = page.id AND r."receivedAt" < ${cutoff}::timestamptz
          AND (r.outcome <> 'accepted' OR EXISTS (
            SELECT 1 FROM "ReceiverProgress" p
            WHERE p."integrationKey" = r."integrationKey" AND p."incidentKey" = COALESCE(r."incidentId", '')
              AND p."processedThrough" >= r.id))
        RETURNING r.id
      )
      SELECT (SELECT max(id) FROM page)::text AS "lastId", (SELECT count(*) FROM page)::int AS rows,
             (SELECT count(*) FROM page WHERE "receivedAt" < ${cutoff}::timestamptz)::int AS older,
             (SELECT count(*) FROM gone)::int AS pruned`);
    return walked(row, rows, after);
  },
};

function keyed(kind: RetentionKind, table: string, statement: (cutoff: Date, rows: number) => Prisma.Sql): PruneStep {
  return {
    kind,
    table,
    async batch(query, cutoff, rows, after) {
      const [row] = await query<{ pruned: number }>(Prisma.sql`
        WITH gone AS (${statement(cutoff, rows)}) SELECT count(*)::int AS pruned FROM gone`);
      const pruned = row?.pruned ?? 0;
      return { pruned, goesOn: keyedGoesOn(pruned, rows), after };
    },
  };
}

/** A conformance run once finished before the cutoff (a run still going is never touched). */
const conformanceRuns = keyed("conformanceRuns", "ConformanceRun", (c, n) => {
  const old = Prisma.sql`"finishedAt" < ${c}::timestamptz`;
  return Prisma.sql`DELETE FROM "ConformanceRun" WHERE ${old}
    AND id IN (SELECT id FROM "ConformanceRun" WHERE ${old} LIMIT ${n}::int) RETURNING 1`;
});

// Sign-in artefacts: each once it stopped being usable before the cutoff. The credential purge
// (server/identity/purge-expired-credentials.ts) deletes most an hour after expiry already; these
// steps bound the rest (dashboard sessions, guess-throttle rows) and catch up after a clock jump.
const ended = (c: Date) => Prisma.sql`("expiresAt" < ${c}::timestamptz OR "endedAt" < ${c}::timestamptz)`;
const expired = (c: Date) => Prisma.sql`"expiresAt" < ${c}::timestamptz`;

/** At most n rows of a table whose `where` holds, picked by its primary key (identifiers are constants here). */
const deleteWhere = (table: string, key: string, where: Prisma.Sql, n: number) =>
  Prisma.sql`DELETE FROM ${Prisma.raw(`"${table}"`)} WHERE ${where}
    AND ${Prisma.raw(`"${key}"`)} IN (SELECT ${Prisma.raw(`"${key}"`)} FROM ${Prisma.raw(`"${table}"`)} WHERE ${where} LIMIT ${n}::int) RETURNING 1`;

const signInSteps: PruneStep[] = [
  keyed("signInArtefacts", "SigninToken", (c, n) => deleteWhere("SigninToken", "tokenHash", expired(c), n)),
  keyed("signInArtefacts", "AuthorizationCode", (c, n) => deleteWhere("AuthorizationCode", "codeHash", expired(c), n)),
  keyed("signInArtefacts", "PortalSession", (c, n) => deleteWhere("PortalSession", "idHash", ended(c), n)),
  keyed("signInArtefacts", "WorkbenchSession", (c, n) => deleteWhere("WorkbenchSession", "idHash", ended(c), n)),
  // A refresh-token family goes whole, once every token of it expired: reuse detection needs the spent ones.
  keyed("signInArtefacts", "RefreshToken", (c, n) => {
    const deadFamily = Prisma.sql`NOT EXISTS (SELECT 1 FROM "RefreshToken" a
      WHERE a."familyId" = r."familyId" AND a."expiresAt" >= ${c}::timestamptz)`;
    return Prisma.sql`DELETE FROM "RefreshToken" r WHERE ${deadFamily}
      AND r."tokenHash" IN (SELECT r."tokenHash" FROM "RefreshToken" r WHERE ${deadFamily} LIMIT ${n}::int) RETURNING 1`;
  }),
  keyed("signInArtefacts", "GuessThrottle", (c, n) => {
    const old = Prisma.sql`"lastFailureAt" < ${c}::timestamptz AND "blockedUntil" < ${c}::timestamptz`;
    return Prisma.sql`DELETE FROM "GuessThrottle" WHERE ${old}
      AND (kind, key) IN (SELECT kind, key FROM "GuessThrottle" WHERE ${old} LIMIT ${n}::int) RETURNING 1`;
  }),
  // An address trusted for an account (docs/decisions/0070) is kept no longer than anything else.
  keyed("signInArtefacts", "GuessTrust", (c, n) => {
    const old = Prisma.sql`"lastSuccessAt" < ${c}::timestamptz`;
    return Prisma.sql`DELETE FROM "GuessTrust" WHERE ${old}
      AND (kind, key) IN (SELECT kind, key FROM "GuessTrust" WHERE ${old} LIMIT ${n}::int) RETURNING 1`;
  }),
];

/** In the order a run takes them: the largest tables first. */
export const PRUNE_STEPS: readonly PruneStep[] = [deliveries, receiverRecords, conformanceRuns, ...signInSteps];
