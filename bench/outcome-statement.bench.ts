// The delivery worker's outcome statement (server/webhooks/delivery/record-outcome.ts) at the sizes
// of an event-loop turn's outcomes: N delivered heads, each with LANE_CLAIM_DEPTH due events behind
// it, written by one statement that records them and claims those events. Beside it in the same run,
// its ceiling: the same row changes by one plain statement (the heads set delivered and the events
// behind them claimed, by primary key), without the claim guards and lane reads. What it shows: the
// statement's cost over its ceiling stays level as the batch grows; a join the planner runs pairwise
// (it cannot count what jsonb_to_recordset and the CTEs yield) shows as a ratio growing with the
// batch. Embedded PostgreSQL; also the external server when TEST_DATABASE_URL is set.
import { applyMigrations } from "../server/platform/db/apply-migrations.ts";
import { Prisma, createDbClient, type DbClient } from "../server/platform/db/client.ts";
import { sqlQuery } from "../server/platform/db/sql-transaction.ts";
import { claimDeliveries } from "../server/webhooks/delivery/claim-deliveries.ts";
import type { ClaimedDelivery } from "../server/webhooks/outbox/outbox-row.ts";
import { recordOutcome } from "../server/webhooks/delivery/record-outcome.ts";
import { LANE_CLAIM_DEPTH } from "../server/webhooks/outbox/lane-statements.ts";
import { onEachDatabase } from "./lib/bench-databases.ts";
import { median } from "./lib/median.ts";

const SIZES = [1, 16, 64];
const ROUNDS = 12; // each way, after two warm-up rounds
const WORKER = "bench-worker";
const AGENCY = "0b0c5b52-1c0e-4a57-9a57-000000000001";

/** An outbox of `heads` lanes, each a claimed head and LANE_CLAIM_DEPTH due events behind it. */
async function freshLanes(db: DbClient, heads: number) {
  await sqlQuery(db, Prisma.sql`TRUNCATE "WebhookAttempt", "WebhookDelivery"`);
  const producedAt = new Date(Date.UTC(2026, 10, 1, 12));
  const now = new Date(producedAt.getTime() + 1_000);
  await sqlQuery(
    db,
    Prisma.sql`
    INSERT INTO "WebhookDelivery" ("requestId", "integrationKey", "agencyId", "incidentId", "changeSeq", "eventName",
                                   method, path, body, "producedAt", "nextAttemptAt")
    SELECT gen_random_uuid(), 'north-psap', ${AGENCY}::uuid, ('5d1f0000-0000-4000-8000-' || lpad(l::text, 12, '0'))::uuid,
           s, 'newLocation', 'POST', '/v3/incidents/x/caller/track', '{}'::jsonb, ${producedAt}, ${producedAt}
    FROM generate_series(1, ${heads}) l, generate_series(1, ${1 + LANE_CLAIM_DEPTH}) s ORDER BY l, s`,
  );
  const claimed = await claimDeliveries(db, { now, leaseMs: 30_000, workerId: WORKER, limit: heads });
  if (claimed.length !== heads) throw new Error(`outcome-statement: claimed ${claimed.length} heads of ${heads}`);
  return { now, claimed };
}

/** The statement under test: every head delivered in one turn, each claiming the events behind it. */
async function statement(db: DbClient, now: Date, claimed: ClaimedDelivery[]) {
  let taken = 0;
  const claimNext = { leaseMs: 30_000, take: () => void taken++, plansHeard: () => 0, none: () => {} };
  const t0 = performance.now();
  await Promise.all(
    claimed.map((delivery) =>
      recordOutcome(db, { delivery, workerId: WORKER, now, attempt: null, outcome: { state: "delivered" }, claimNext }),
    ),
  );
  const ms = performance.now() - t0;
  if (taken !== claimed.length * LANE_CLAIM_DEPTH) throw new Error(`outcome-statement: ${taken} events claimed`);
  return ms;
}

/** The ceiling: the same rows changed by one plain statement. */
async function ceiling(db: DbClient, now: Date, claimed: ClaimedDelivery[]) {
  const heads = claimed.map((c) => c.id.toString());
  const t0 = performance.now();
  // A lane's rows have consecutive ids (one INSERT, in lane order): the events behind a head follow it.
  const [changed] = await sqlQuery<{ done: number; claimed: number }>(
    db,
    Prisma.sql`
    WITH done AS (
      UPDATE "WebhookDelivery" SET state = 'delivered', "attemptCount" = "attemptCount" + 1, "claimedAt" = NULL,
             "claimedBy" = NULL, "leaseExpiresAt" = NULL, "finishedAt" = ${now}
      WHERE id = ANY(${heads}::bigint[])
      RETURNING 1
    ), claimed AS (
      UPDATE "WebhookDelivery" SET state = 'delivering', "claimedAt" = ${now}, "claimedBy" = ${WORKER},
             "leaseExpiresAt" = clock_timestamp() + interval '30 seconds'
      WHERE id = ANY(ARRAY(SELECT generate_series(h + 1, h + ${LANE_CLAIM_DEPTH}) FROM unnest(${heads}::bigint[]) h))
        AND state = 'pending'
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM done)::int AS done, (SELECT count(*) FROM claimed)::int AS claimed`,
  );
  const ms = performance.now() - t0;
  if (changed?.done !== claimed.length || changed.claimed !== claimed.length * LANE_CLAIM_DEPTH)
    throw new Error(`outcome-statement: the ceiling changed ${JSON.stringify(changed)}`);
  return ms;
}

async function measure(label: string, url: string) {
  await applyMigrations(url);
  const db = createDbClient(url, { poolSize: 2 });
  const rows: Record<string, Record<string, number | string>> = {};
  try {
    for (const heads of SIZES) {
      const times = { statement: [] as number[], ceiling: [] as number[] };
      for (let round = 0; round < 2 * (ROUNDS + 2); round++) {
        const way = round % 2 === 0 ? "statement" : "ceiling";
        const { now, claimed } = await freshLanes(db, heads);
        const ms = await (way === "statement" ? statement : ceiling)(db, now, claimed);
        if (round >= 4) times[way].push(ms);
      }
      const s = median(times.statement);
      const c = median(times.ceiling);
      rows[`${heads} heads, ${heads * LANE_CLAIM_DEPTH} claimed behind them`] = {
        "statement ms": +s.toFixed(2),
        "ceiling ms": +c.toFixed(2),
        "statement / ceiling": +(s / c).toFixed(2),
        "statement µs per head": Math.round((1000 * s) / heads),
      };
    }
  } finally {
    await db.$disconnect();
  }
  console.log(`${label}:`);
  console.table(rows);
}

export async function run() {
  console.log(
    `\n## outcome-statement — medians of ${ROUNDS} rounds each way, the two ways alternating (one statement per round)`,
  );
  await onEachDatabase("outcome-statement", measure);
}
