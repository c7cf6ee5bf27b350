// A webhook engine over a fresh test database, without HTTP in front: the
// runtime, the planner subscribed to incident changes, a recording receiver
// that the seeded integrations point at, and helpers to commit hand-built
// changes exactly as the incident aggregate does (inside a transaction).
import { WorkbenchClock } from "../../platform/clock/clock.ts";
import { parseEnv } from "../../platform/env.ts";
import { createLogger } from "../../platform/logger.ts";
import type { Runtime } from "../../runtime.ts";
import { SigningKeyStore } from "../../platform/signing-keys.ts";
import { notifyChangeSubscribers, subscribeToChanges, type IncidentChange } from "../../incidents/change-record.ts";
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database.ts";
import { V3_FLAGS, type V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { planDeliveriesOnChange } from "../planning/plan-deliveries.ts";
import { webhookEvents, type WebhookEvents } from "../webhook-events.ts";
import { startRecordingReceiver, type RecordingReceiver } from "./recording-receiver.ts";

/** `env`: extra environment (e.g. WORKBENCH_ACCESS=shared, OUTBOUND_ALLOW). */
export async function startWebhookHarness(
  options: { flags?: readonly V3Flag[]; tls?: { key: string; cert: string }; env?: Record<string, string> } = {},
) {
  const database: TestDatabase = await createTestDatabase();
  const clock = new WorkbenchClock();
  const env = parseEnv({
    NODE_ENV: "test",
    PUBLIC_URL: "http://127.0.0.1:9",
    DATABASE_URL: database.url,
    ...options.env,
  });
  const keys = new SigningKeyStore({ db: database.db, clock });
  // As boot.ts: the first signing key exists before any worker runs, not generated inside an
  // attempt's deadline on a busy machine.
  await keys.current();
  const runtime: Runtime = {
    env,
    db: database.db,
    databaseUrl: database.url,
    clock,
    keys,
    logger: createLogger({ level: "silent" }),
    databaseMode: database.mode,
  };
  const receiver: RecordingReceiver = await startRecordingReceiver({ tls: options.tls });
  const unsubscribe = subscribeToChanges(planDeliveriesOnChange);

  /** Points an integration at the recording receiver with an accepted declaration of `flags`. */
  async function pointIntegration(
    key: string,
    flags: readonly V3Flag[] = options.flags ?? V3_FLAGS,
    overrides: { url?: string; insecureDev?: boolean } = {},
  ) {
    await database.db.integration.update({
      where: { key },
      data: { receiverUrl: overrides.url ?? receiver.url, insecureDev: overrides.insecureDev ?? true },
    });
    const now = clock.now();
    const data = {
      status: "active",
      version: "3.0",
      majorVersion: 3,
      flags: [...flags],
      credential: "Publisher",
      checkedAt: now,
      nextCheckAt: new Date(now.getTime() + 3600_000),
    };
    await database.db.webhookCapabilities.upsert({
      where: { integrationKey: key },
      create: { integrationKey: key, ...data },
      update: data,
    });
  }
  await pointIntegration("north-psap");

  return {
    runtime,
    database,
    clock,
    receiver,
    pointIntegration,
    /** Commits one change the way the aggregate does. */
    commit: (change: IncidentChange) => inSqlTransaction(database.db, (tx) => notifyChangeSubscribers(tx, [change])),
    advanceClock: (ms: number) => clock.setOffset(clock.offsetMs + ms),
    async close() {
      unsubscribe();
      await receiver.close();
      await database.drop();
    },
  };
}
export type WebhookHarness = Awaited<ReturnType<typeof startWebhookHarness>>;

/** Resolves when `count` events of `name` matching `where` were emitted (tests wait on events, not sleeps). */
export function waitForEvents<K extends keyof WebhookEvents>(
  name: K,
  count: number,
  where: (...args: WebhookEvents[K]) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<WebhookEvents[K][]> {
  const seen: WebhookEvents[K][] = [];
  const events = webhookEvents();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      events.off(name, on as never);
      reject(new Error(`timed out waiting for ${count} ${name} (saw ${seen.length})`));
    }, timeoutMs);
    function on(...args: WebhookEvents[K]) {
      if (!where(...args)) return;
      seen.push(args);
      if (seen.length >= count) {
        clearTimeout(timer);
        events.off(name, on as never);
        resolve(seen);
      }
    }
    events.on(name, on as never);
  });
}

type Attempted = WebhookEvents["delivery:attempted"][0];

/**
 * Every attempt (of one incident, when given) from now on, as it is recorded. A retry comes when a
 * test moves the workbench clock on by its delay, or by real time first on a slow machine: so a
 * test waits for a count of attempts, not for "the one after its move", and reads when each retry
 * was scheduled from the attempt's own `retryAt`. `stop` when done.
 */
export function recordAttempts(options: { advance: (ms: number) => unknown; incidentId?: string }) {
  const seen: Attempted[] = [];
  const on = (e: Attempted) => {
    if (options.incidentId === undefined || e.incidentId === options.incidentId) seen.push(e);
  };
  webhookEvents().on("delivery:attempted", on);
  const reach = async (count: number, timeoutMs = 15_000) => {
    const deadline = performance.now() + timeoutMs;
    while (seen.length < count) {
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${count} attempts (saw ${seen.length})`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return {
    seen,
    /** Resolves once `count` attempts were recorded. */
    reach,
    /** Moves the clock on by `delayMs` unless the retry after attempt `n` came already; waits for it. */
    async retryAfter(n: number, delayMs: number) {
      if (seen.length === n) await options.advance(delayMs);
      await reach(n + 1);
    },
    stop: () => void webhookEvents().off("delivery:attempted", on),
  };
}
