// Bulk history for the inspector's test and benchmark: `count` deliveries over `incidents`
// incidents and three integrations, produced one second apart up to `until`. Most are delivered
// after one attempt (every tenth a 503 then a 200), one in a hundred expired after a 503, and the
// newest ten are still pending with no attempt yet, as in an outbox in use: each state filter finds
// some. One INSERT … SELECT generate_series per table: 100,000 rows take a couple of seconds, not
// minutes. Ids are md5s stamped as version-4 UUIDs (the API's z.uuid() accepts only RFC versions).
import type { DbClient } from "../../platform/db/client.ts";

const INTEGRATIONS = ["north-psap", "central-ems", "fire-rescue"];
const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";

export async function insertSyntheticDeliveries(options: {
  db: DbClient;
  count: number;
  incidents: number;
  until: Date;
}) {
  const { db, count, incidents, until } = options;
  await db.$executeRaw`
    INSERT INTO "WebhookDelivery" ("requestId", "integrationKey", "agencyId", "incidentId", "changeSeq", "eventName", method, path, body, state, "attemptCount", "producedAt", "nextAttemptAt", "finishedAt")
    SELECT overlay(overlay(md5('d' || g) placing '4' from 13) placing '8' from 17)::uuid, (${INTEGRATIONS}::text[])[1 + g % 3], ${AGENCY}::uuid,
           overlay(overlay(md5('i' || (g % ${incidents}::int)) placing '4' from 13) placing '8' from 17)::uuid, g / ${incidents}::int + 1,
           CASE WHEN g % 7 = 0 THEN 'incident.created' ELSE 'incident.changed' END, 'POST', '/v3/incidents',
           jsonb_build_object('n', g), s.state, CASE WHEN s.state = 'pending' THEN 0 WHEN g % 10 = 0 THEN 2 ELSE 1 END,
           ${until}::timestamptz - make_interval(secs => ${count}::int - g), ${until}::timestamptz - make_interval(secs => ${count}::int - g),
           CASE WHEN s.state <> 'pending' THEN ${until}::timestamptz - make_interval(secs => ${count}::int - g) END
    FROM generate_series(1, ${count}::int) AS g
    CROSS JOIN LATERAL (SELECT (CASE WHEN g > ${count}::int - 10 THEN 'pending' WHEN g % 100 = 55 THEN 'expired' ELSE 'delivered' END)::"WebhookDeliveryState" AS state) AS s`;
  await db.$executeRaw`
    INSERT INTO "WebhookAttempt" ("deliveryId", attempt, "startedAt", "durationMs", url, "requestHeaders", status, "responseHeaders", "bodyExcerpt", error)
    SELECT d.id, a.n, d."producedAt" + make_interval(secs => a.n - 1), 12, 'http://127.0.0.1/receivers/x/v3/incidents',
           '{"authorization":"Bearer [redacted]"}'::jsonb, CASE WHEN a.n < d."attemptCount" OR d.state = 'expired' THEN 503 ELSE 200 END, '{}'::jsonb, '', NULL
    FROM "WebhookDelivery" d CROSS JOIN LATERAL generate_series(1, d."attemptCount") AS a(n)
    WHERE d."requestId" IN (SELECT overlay(overlay(md5('d' || g) placing '4' from 13) placing '8' from 17)::uuid FROM generate_series(1, ${count}::int) AS g)`;
  await db.$executeRaw`ANALYZE "WebhookDelivery"`;
  await db.$executeRaw`ANALYZE "WebhookAttempt"`;
}
