// The retention pruner (docs/retention.md) on 100,000 deliveries finished 30 days ago (with their
// attempts; the newest ten still pending): one run in batches of 500 without the pause between them,
// each batch timed (how long one holds its rows and the disk), then the run's rows per second beside
// its ceiling, the same rows deleted by one plain statement. Embedded PostgreSQL; also the external
// server when TEST_DATABASE_URL is set.
import { WorkbenchClock } from "../server/platform/clock/clock.ts";
import { applyMigrations } from "../server/platform/db/apply-migrations.ts";
import { createDbClient, type DbClient } from "../server/platform/db/client.ts";
import { seedDatabase } from "../prisma/seed.ts";
import { insertSyntheticDeliveries } from "../server/webhooks/testing/insert-synthetic-deliveries.ts";
import { pruneOldData } from "../server/workbench/retention/prune-old-data.ts";
import { PAUSE_MS } from "../server/workbench/retention/retention-policy.ts";
import { onEachDatabase } from "./lib/bench-databases.ts";

const COUNT = 100_000;
const DAY_MS = 86_400_000;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function history(db: DbClient, clock: WorkbenchClock) {
  await db.$executeRaw`TRUNCATE "WebhookDelivery", "WebhookAttempt"`;
  await insertSyntheticDeliveries({ db, count: COUNT, incidents: 5_000, until: new Date(clock.nowMs() - 30 * DAY_MS) });
  await db.$executeRaw`VACUUM ANALYZE "WebhookDelivery"`;
  await db.$executeRaw`VACUUM ANALYZE "WebhookAttempt"`;
}

async function measure(label: string, url: string) {
  await applyMigrations(url);
  const db = createDbClient(url, { poolSize: 4 });
  const clock = new WorkbenchClock();
  await seedDatabase({ db, clock, publicUrl: "http://127.0.0.1:9" });

  await history(db, clock);
  const batches: number[] = [];
  let last = performance.now();
  const t0 = last;
  const outcome = await pruneOldData({
    db,
    clock,
    retentionDays: 14,
    pauseMs: 0,
    onBatch: (table) => {
      const now = performance.now();
      if (table === "WebhookDelivery") batches.push(now - last);
      last = now;
    },
  });
  const runMs = performance.now() - t0;
  const pruned = outcome.ran ? outcome.pruned.deliveries : 0;
  const left = await db.webhookDelivery.count();

  await history(db, clock);
  const t1 = performance.now();
  const plain = await db.$executeRaw`DELETE FROM "WebhookDelivery"
    WHERE state IN ('delivered', 'expired', 'superseded') AND "finishedAt" < ${new Date(clock.nowMs() - 14 * DAY_MS)}`;
  const plainMs = performance.now() - t1;

  const rate = (rows: number, ms: number) => Math.round(rows / (ms / 1000)).toLocaleString("en");
  console.table({
    [`${label}: pruner, batches of 500, no pause`]: {
      rows: pruned,
      "rows/s": rate(pruned, runMs),
      "run s": (runMs / 1000).toFixed(2),
      batches: batches.length,
      "batch p50 ms": pct(batches, 50).toFixed(1),
      "batch p99 ms": pct(batches, 99).toFixed(1),
      "batch max ms": Math.max(...batches).toFixed(1),
      "left (pending)": left,
    },
    [`${label}: ceiling, one DELETE statement`]: {
      rows: plain,
      "rows/s": rate(plain, plainMs),
      "run s": (plainMs / 1000).toFixed(2),
    },
  });
  console.log(
    `with the worker's ${PAUSE_MS} ms between batches the run takes ${(batches.length * PAUSE_MS) / 1000} s longer; the database is free between batches`,
  );
  await db.$disconnect();
}

export async function run() {
  console.log(`\n## retention — pruning ${COUNT.toLocaleString("en")} deliveries (with their attempts) 30 days old`);
  await onEachDatabase("retention", measure);
}
