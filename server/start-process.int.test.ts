// A first boot on an empty database: the seed runs after the workers started,
// so the webhook planner sees the demo incidents' changes, as `workbench seed
// reset` (which runs in a started process) does. No integration has declared its
// capabilities yet at that moment, so the planner holds each lane's changes until
// its /about is accepted (docs/decisions/0023); seeded before it subscribed, the
// changes left no lane at all and were never delivered.
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseEnv } from "./platform/env.ts";
import { createLogger } from "./platform/logger.ts";
import { setRuntime } from "./runtime.ts";
import { DEMO_INCIDENT } from "./incidents/seed-demo-incidents.ts";
import { startProcess } from "./start-process.ts";
import { CapturedLogs } from "./testing/test-server.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  // The template is seeded: empty it as a first boot finds it (the clock and migration record stay).
  const tables = await database.db.$queryRaw<Array<{ t: string }>>`
    SELECT tablename::text AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT IN ('_prisma_migrations', 'WorkbenchClock')`;
  await database.db.$executeRawUnsafe(`TRUNCATE ${tables.map(({ t }) => `"${t}"`).join(", ")} CASCADE`);
});
afterAll(async () => {
  setRuntime(undefined);
  await database.drop();
});

it("first boot: the planner sees the seed's demo incidents (it subscribed before the seed ran)", async () => {
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL: "http://127.0.0.1:9",
    DATABASE_URL: database.url,
    DELIVERY_WORKERS: "false",
  });
  const logs = new CapturedLogs();
  const { platform, workers } = await startProcess({
    env,
    logger: createLogger({ level: "info", destination: logs }),
    databaseUrl: database.url,
  });
  try {
    expect(logs.text).toContain("seeded an empty database");
    // Held for the declaration their integrations have not made yet, from each incident's first change.
    const held = await database.db.webhookLane.findMany({
      where: { incidentId: { in: Object.values(DEMO_INCIDENT) }, heldFromSeq: { not: null } },
    });
    const lanes = held.map((l) => `${l.incidentId} ${l.integrationKey}`).sort();
    // North PSAP's fall at home goes to north-psap; Central EMS's chest pain to central-ems.
    expect(lanes).toEqual(
      [`${DEMO_INCIDENT.northFall} north-psap`, `${DEMO_INCIDENT.emsChestPain} central-ems`].sort(),
    );
  } finally {
    await workers.stop();
    await platform.shutdown();
  }
});
