// What happened to the changes a load row made, in the default mode: left to drain,
// was every change recorded by its embedded receiver (none lost), in change order
// per incident (none reordered), and how long after its acceptance (producedAt, the
// change's commit on the workbench clock) was it recorded (receivedAt)?
import { Prisma, type DbClient } from "../../server/platform/db/client.ts";
import { sqlQuery } from "../../server/platform/db/sql-transaction.ts";
import { unprocessedRecordCount } from "../../server/reference-receiver/receiver-progress.ts";

export type DeliveryReport = {
  name: string;
  acceptedRps?: number;
  /** The API-only process's rate for the same load in the same run. */
  apiOnlyRps?: number;
  planned: number;
  recorded: number;
  reordered: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  drainMs: number;
};

const DRAIN_LIMIT_MS = 120_000;

/** Waits until nothing is pending or in flight (at most 2 min), then reports on the changes made between `fromMs` and `toMs`. */
export async function deliveryReport(
  db: DbClient,
  name: string,
  fromMs: number,
  toMs: number,
): Promise<DeliveryReport> {
  const started = Date.now();
  for (;;) {
    const [open] = await sqlQuery<{ n: number }>(
      db,
      Prisma.sql`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE state IN ('pending', 'delivering')`,
    );
    if ((open!.n === 0 && (await unprocessedRecordCount(db)) === 0) || Date.now() - started > DRAIN_LIMIT_MS) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const drainMs = Date.now() - started;
  const [row] = await sqlQuery<{
    planned: number;
    recorded: number;
    reordered: number;
    p: number[] | null;
    max: number | null;
  }>(
    db,
    Prisma.sql`
    WITH d AS (
      SELECT d."incidentId", d."changeSeq", d."producedAt", r.id AS rid, r."receivedAt"
      FROM "WebhookDelivery" d
      JOIN "Integration" i ON i.key = d."integrationKey" AND i."receiverUrl" LIKE '/receivers/%'
      LEFT JOIN "ReceiverRecord" r ON r."integrationKey" = d."integrationKey" AND r."dedupeKey" = d."requestId"::text
      WHERE d."producedAt" >= ${new Date(fromMs)} AND d."producedAt" < ${new Date(toMs)}
    ), ordered AS (
      SELECT "changeSeq" < lag("changeSeq") OVER (PARTITION BY "incidentId" ORDER BY rid) AS reordered
      FROM d WHERE rid IS NOT NULL
    )
    SELECT (SELECT count(*) FROM d)::int AS planned, (SELECT count(rid) FROM d)::int AS recorded,
      (SELECT count(*) FROM ordered WHERE reordered)::int AS reordered,
      (SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM "receivedAt" - "producedAt") * 1000)
         FROM d WHERE rid IS NOT NULL) AS p,
      (SELECT max(extract(epoch FROM "receivedAt" - "producedAt") * 1000) FROM d WHERE rid IS NOT NULL)::float8 AS max`,
  );
  return {
    name,
    planned: row!.planned,
    recorded: row!.recorded,
    reordered: row!.reordered,
    p50: row!.p ? Math.round(row!.p[0]!) : null,
    p99: row!.p ? Math.round(row!.p[1]!) : null,
    max: row!.max === null ? null : Math.round(row!.max),
    drainMs,
  };
}

export function printDeliveryTable(reports: DeliveryReport[]) {
  if (reports.length === 0) return;
  // The ratio only where the rows were paired with API-only rows (inbound-track; not inbound-ab).
  const paired = reports.some((r) => r.apiOnlyRps);
  console.log("\n## Default mode: every change delivered to its embedded receiver and recorded there");
  console.table(
    reports.map((r) => ({
      target: r.name,
      "accepted req/s": r.acceptedRps,
      ...(paired
        ? { "× API-only": r.apiOnlyRps && r.acceptedRps ? Number((r.acceptedRps / r.apiOnlyRps).toFixed(2)) : null }
        : {}),
      changes: r.planned,
      recorded: r.recorded,
      lost: r.planned - r.recorded,
      reordered: r.reordered,
      "to recorded p50 ms": r.p50,
      "p99 ms": r.p99,
      "max ms": r.max,
      "drain after load ms": r.drainMs,
    })),
  );
  console.log(
    paired
      ? "target: accepted ≥ 0.5 × the API-only process's rate in the same run, accept p99 < 50 ms (table above), every change recorded within 1 s (p99), none lost or reordered"
      : "target: every change recorded within 1 s (p99), none lost or reordered",
  );
}
