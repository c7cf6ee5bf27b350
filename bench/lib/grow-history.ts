// A used workbench in minutes instead of the soak's half hour: the history a short soak wrote,
// doubled `doublings` times by copying every incident with everything of it (its change history,
// positions, agencies, webhook lane, the receivers' replica, track and progress rows, and its
// finished deliveries with their attempts and receiver records) under a new id, in SQL. Copies of
// rows the workbench wrote, so every value has the shape it writes; new keys where keys are unique
// (request and dedupe ids stay paired). Then the oldest `prunedShare` of the delivery-side rows is
// deleted, as the pruner deletes the oldest, leaving their space to be reused, and the database is
// settled as a history that accumulated would be: vacuumed, analysed and checkpointed
// (seed-history.ts says why). Unfinished deliveries are not copied: a copy would be delivered.
import pg from "pg";

/** The tables copied per incident and the column that names it (text or uuid). */
const BY_INCIDENT: Array<[table: string, column: string]> = [
  ["Incident", "id"],
  ["IncidentAgency", "incidentId"],
  ["IncidentChange", "incidentId"],
  ["IncidentPosition", "incidentId"],
  ["WebhookLane", "incidentId"],
  ["ReceiverIncident", "incidentId"],
  ["ReceiverTrackPosition", "incidentId"],
];

export async function growHistory(
  url: string,
  options: { doublings: number; prunedShare: number; log?: (line: string) => void },
): Promise<void> {
  const log = options.log ?? console.log;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const q = (sql: string) => c.query(sql);
  try {
    const columns = async (table: string) =>
      (
        await c.query<{ name: string; identity: boolean }>(
          `SELECT column_name AS name, (column_default LIKE 'nextval(%') AS identity
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
          [table],
        )
      ).rows;
    const quoted = (name: string) => `"${name}"`;
    /** `INSERT INTO table (cols) SELECT exprs FROM table t JOIN …`: each column copied unless `replace` gives its value. */
    const copy = async (table: string, from: string, replace: Record<string, string>) => {
      const cols = (await columns(table)).filter((col) => !col.identity || col.name in replace);
      const names = cols.map((col) => quoted(col.name)).join(", ");
      const exprs = cols.map((col) => replace[col.name] ?? `t.${quoted(col.name)}`).join(", ");
      const { rowCount } = await q(`INSERT INTO ${quoted(table)} (${names}) SELECT ${exprs} FROM ${from}`);
      return rowCount ?? 0;
    };
    for (let round = 1; round <= options.doublings; round++) {
      const started = Date.now();
      await q("BEGIN");
      await q(`CREATE TEMP TABLE im ON COMMIT DROP AS SELECT id AS old, gen_random_uuid() AS new FROM "Incident"`);
      for (const [table, column] of BY_INCIDENT) {
        const uuid = table === "Incident" || !table.startsWith("Receiver");
        const join = uuid ? `im ON im.old = t.${quoted(column)}` : `im ON im.old::text = t.${quoted(column)}`;
        await copy(table, `${quoted(table)} t JOIN ${join}`, { [column]: uuid ? "im.new" : "im.new::text" });
      }
      await q(`CREATE TEMP TABLE dm ON COMMIT DROP AS
        SELECT d.id AS old, nextval(pg_get_serial_sequence('"WebhookDelivery"', 'id')) AS new, gen_random_uuid() AS request, im.new AS incident
        FROM "WebhookDelivery" d JOIN im ON im.old = d."incidentId" WHERE d.state NOT IN ('pending', 'delivering') ORDER BY d.id`);
      const deliveries = await copy("WebhookDelivery", `"WebhookDelivery" t JOIN dm ON dm.old = t.id`, {
        id: "dm.new",
        requestId: "dm.request",
        incidentId: "dm.incident",
      });
      await copy("WebhookAttempt", `"WebhookAttempt" t JOIN dm ON dm.old = t."deliveryId"`, { deliveryId: "dm.new" });
      await q(`CREATE TEMP TABLE rm ON COMMIT DROP AS
        SELECT r.id AS old, nextval(pg_get_serial_sequence('"ReceiverRecord"', 'id')) AS new,
          coalesce(dm.request::text, gen_random_uuid()::text) AS dedupe, im.new::text AS incident
        FROM "ReceiverRecord" r JOIN im ON im.old::text = r."incidentId"
        LEFT JOIN "WebhookDelivery" d ON d."requestId"::text = r."dedupeKey" LEFT JOIN dm ON dm.old = d.id
        ORDER BY r.id`);
      const records = await copy("ReceiverRecord", `"ReceiverRecord" t JOIN rm ON rm.old = t.id`, {
        id: "rm.new",
        dedupeKey: "rm.dedupe",
        serviceRequestId: "rm.dedupe",
        incidentId: "rm.incident",
      });
      await q(`INSERT INTO "ReceiverProgress" ("integrationKey", "incidentKey", "processedThrough")
        SELECT p."integrationKey", im.new::text, coalesce((SELECT max(rm.new) FROM rm WHERE rm.incident = im.new::text), p."processedThrough")
        FROM "ReceiverProgress" p JOIN im ON im.old::text = p."incidentKey"`);
      await q("COMMIT");
      log(
        `grow-history: round ${round}: ${deliveries} deliveries, ${records} receiver records copied, ${Math.round((Date.now() - started) / 1000)} s`,
      );
    }
    // The pruner deletes the oldest finished rows; their space is left for new rows to reuse.
    for (const [table, order] of [
      ["WebhookDelivery", "id"],
      ["ReceiverRecord", "id"],
    ] as const) {
      const { rowCount } = await q(`DELETE FROM "${table}" WHERE ${order} <= (
          SELECT percentile_disc(${options.prunedShare}) WITHIN GROUP (ORDER BY id) FROM "${table}")
        ${table === "WebhookDelivery" ? "AND state NOT IN ('pending', 'delivering')" : ""}`);
      log(`grow-history: ${rowCount} ${table} rows deleted (the pruned share)`);
    }
    await q("VACUUM ANALYZE");
    await q("CHECKPOINT");
  } finally {
    await c.end();
  }
}
