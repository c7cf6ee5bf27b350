// The delivery inspector with 100,000 recorded deliveries. Target: the first page in under
// 300 ms of server time (docs/performance.md). Measures the `deliveries.inspect` procedure through
// the tRPC caller plus superjson serialisation — the server's share of a page load — for the
// unfiltered first page, each filter, a text search and a page 50,000 rows deep (keyset: it
// should cost what the first page costs). Embedded PostgreSQL; also the external server when
// TEST_DATABASE_URL is set.
import superjson from "superjson";
import { WorkbenchClock } from "../server/platform/clock/clock.ts";
import { applyMigrations } from "../server/platform/db/apply-migrations.ts";
import { createDbClient, type DbClient } from "../server/platform/db/client.ts";
import { seedDatabase } from "../prisma/seed.ts";
import { inspectDeliveries, type TInspectDeliveriesInput } from "../server/webhooks/admin/inspect-deliveries.ts";
import { insertSyntheticDeliveries } from "../server/webhooks/testing/insert-synthetic-deliveries.ts";
import { onEachDatabase } from "./lib/bench-databases.ts";

const COUNT = 100_000;
const RUNS = 30;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function time(db: DbClient, input: TInspectDeliveriesInput) {
  const ms: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const page = await inspectDeliveries({ db, input });
    superjson.stringify(page);
    ms.push(performance.now() - t0);
    rows = page.items.length;
  }
  return { rows, p50: pct(ms, 50).toFixed(1), p95: pct(ms, 95).toFixed(1), max: Math.max(...ms).toFixed(1) };
}

async function measure(label: string, url: string) {
  await applyMigrations(url);
  const db = createDbClient(url, { poolSize: 4 });
  const clock = new WorkbenchClock();
  await seedDatabase({ db, clock, publicUrl: "http://127.0.0.1:9" });
  const t0 = performance.now();
  await insertSyntheticDeliveries({ db, count: COUNT, incidents: 5_000, until: clock.now() });
  console.log(
    `${label}: inserted ${COUNT.toLocaleString("en")} deliveries (+ attempts) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const mid = (await inspectDeliveries({ db, input: { limit: 1, cursor: String(COUNT / 2) } })).items[0]!;
  const cases: Array<[string, TInspectDeliveriesInput]> = [
    ["first page (100), no filter", {}],
    ["first page, integration", { integration: "central-ems" }],
    ["first page, incident", { incidentId: mid.incidentId }],
    ["first page, state = delivered", { state: "delivered" }],
    ["first page, state = expired (1 in 100)", { state: "expired" }],
    ["state = pending (the newest 10)", { state: "pending" }],
    ["first page, search 'created'", { search: "created" }],
    ["first page, search request id", { search: mid.requestId }],
    ["page 50,000 rows deep", { cursor: String(COUNT / 2) }],
  ];
  const table: Record<string, Awaited<ReturnType<typeof time>>> = {};
  for (const [name, input] of cases) table[name] = await time(db, input); // one at a time: timings must not overlap
  console.table(table);
  await db.$disconnect();
}

export async function run() {
  console.log(
    `\n## inspector — ${COUNT.toLocaleString("en")} deliveries, ${RUNS} runs per case (ms of server time: query + serialisation)`,
  );
  await onEachDatabase("inspector", measure);
}
