// A delivery worker as its own process, for the crash test (SIGKILL) and the
// scale-out bench: DATABASE_URL, PUBLIC_URL, LEASE_MS and TIMEOUT_MS from the environment.
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { createDbClient } from "../../platform/db/client.ts";
import { parseEnv } from "../../platform/env.ts";
import { createLogger } from "../../platform/logger.ts";
import { SigningKeyStore } from "../../platform/signing-keys.ts";
import { startDeliveryWorker } from "../delivery/delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";

const env = parseEnv();
const db = createDbClient(env.DATABASE_URL!);
const clock = new WorkbenchClock();
const runtime = {
  env,
  db,
  databaseUrl: env.DATABASE_URL!,
  clock,
  keys: new SigningKeyStore({ db, clock }),
  logger: createLogger({ level: "silent" }),
  databaseMode: "external" as const,
};
const worker = await startDeliveryWorker(runtime, {
  cutOverLane,
  workerId: process.env.WORKER_ID,
  leaseMs: Number(process.env.LEASE_MS ?? 30_000),
  timeoutMs: Number(process.env.TIMEOUT_MS ?? 10_000),
});
process.stdout.write("ready\n");
process.on(
  "SIGTERM",
  () =>
    void worker
      .stop()
      .then(() => db.$disconnect())
      .then(() => process.exit(0)),
);
