// A long past for the default-mode bench, written straight in SQL (the API would take
// minutes): each incident's Entered track lengthened by `positions` positions on both
// sides (the platform's IncidentPosition rows and the embedded receiver's replica rows),
// and `deliveries` earlier delivered deliveries with their attempt and their receiver
// record, spread over the incidents. Copies of rows the warm-up made, so every value
// has the shape the workbench writes. Then the database is settled (see the end).
import { Prisma, type DbClient } from "../../server/platform/db/client.ts";
import { sqlQuery } from "../../server/platform/db/sql-transaction.ts";

export async function seedHistory(
  db: DbClient,
  options: { incidentIds: string[]; positions: number; deliveries: number },
): Promise<{ positions: number }> {
  const { incidentIds: ids, positions, deliveries } = options;
  const run = (statement: Prisma.Sql) => sqlQuery(db, statement);
  await run(Prisma.sql`
    INSERT INTO "IncidentPosition" ("incidentId", source, location, "addedSeq")
    SELECT inc::uuid, 'Entered', l.location, 0
    FROM unnest(${ids}::text[]) AS inc, generate_series(1, ${positions}::int),
      (SELECT location FROM "IncidentPosition" WHERE source = 'Entered' LIMIT 1) AS l`);
  await run(Prisma.sql`
    INSERT INTO "ReceiverTrackPosition" ("integrationKey", "incidentId", source, n, location)
    SELECT ri."integrationKey", ri."incidentId", 'Entered', coalesce((ri."trackLengths"->>'Entered')::int, 0) + g, l.location
    FROM "ReceiverIncident" ri, generate_series(0, ${positions}::int - 1) AS g,
      (SELECT location FROM "ReceiverTrackPosition" WHERE source = 'Entered' LIMIT 1) AS l
    WHERE ri."incidentId" = ANY(${ids}::text[]) AND ri."trackLengths" ? 'Entered'`);
  await run(Prisma.sql`
    UPDATE "ReceiverIncident" SET "trackLengths" = jsonb_set("trackLengths", '{Entered}',
      to_jsonb((("trackLengths"->>'Entered')::int + ${positions}::int)))
    WHERE "incidentId" = ANY(${ids}::text[]) AND "trackLengths" ? 'Entered'`);
  await run(Prisma.sql`
    WITH sample AS (SELECT * FROM "WebhookDelivery" WHERE state = 'delivered' ORDER BY id LIMIT 1),
    made AS (
      INSERT INTO "WebhookDelivery" ("requestId", "integrationKey", "agencyId", "incidentId", "changeSeq", "eventName",
        method, path, body, state, "attemptCount", "producedAt", "nextAttemptAt", "finishedAt")
      SELECT gen_random_uuid(), s."integrationKey", s."agencyId", (${ids}::text[])[1 + g % ${ids.length}::int]::uuid,
        s."changeSeq", s."eventName", s.method, s.path, s.body, 'delivered', 1,
        s."producedAt" - interval '1 day', s."producedAt" - interval '1 day', s."finishedAt" - interval '1 day'
      FROM sample s, generate_series(1, ${deliveries}::int) AS g
      RETURNING id, "requestId", "integrationKey", "incidentId", method, path, body, "producedAt"),
    attempts AS (
      INSERT INTO "WebhookAttempt" ("deliveryId", attempt, "startedAt", "durationMs", url, "requestHeaders", status)
      SELECT m.id, 1, m."producedAt", 3, 'bench', '{}'::jsonb, 200 FROM made m),
    recorded AS (
      INSERT INTO "ReceiverRecord" ("integrationKey", "dedupeKey", "serviceRequestId", method, path, route, "incidentId",
        body, "receivedAt", status, outcome)
      SELECT m."integrationKey", m."requestId"::text, m."requestId"::text, m.method, m.path, 'caller.newLocation',
        m."incidentId"::text, m.body, m."producedAt", 200, 'accepted'
      FROM made m
      RETURNING id, "integrationKey", "incidentId")
    -- Applied long ago: each incident's processing mark is past its history (the warm-up before the
    -- seed has drained, so no record below it is left unapplied).
    INSERT INTO "ReceiverProgress" ("integrationKey", "incidentKey", "processedThrough")
    SELECT "integrationKey", "incidentId", max(id) FROM recorded GROUP BY "integrationKey", "incidentId"
    ON CONFLICT ("integrationKey", "incidentKey") DO UPDATE
      SET "processedThrough" = GREATEST("ReceiverProgress"."processedThrough", EXCLUDED."processedThrough")`);
  // Settled as a history that accumulated over time would be: vacuumed, analysed and checkpointed.
  // Measured right after this bulk load instead, the row paid the load's own aftermath: the
  // checkpoint its WAL triggers and autovacuum of the new rows ran through the measurement and
  // doubled PostgreSQL's CPU per change (0.30–0.45 × the API-only rate where the same run's short
  // tracks made 0.5–0.58 ×; pg_stat_statements showed every statement slower, none doing more work).
  await run(Prisma.sql`VACUUM ANALYZE`);
  await run(Prisma.sql`CHECKPOINT`);
  return { positions: positions * ids.length };
}
