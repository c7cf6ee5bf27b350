// The delivery worker's LISTEN connection after a database blip (its backend
// terminated): it connects again, claims what was planned while it was away,
// and other processes' NOTIFYs wake it promptly again. The worker's safety
// re-poll is set to a minute here, so only the listener can explain a prompt wake;
// a NOTIFY this process sent itself wakes nothing (its own commits wake it in-process).
import { afterEach, beforeEach, expect, it } from "vitest";
import { notifyChangeSubscribers } from "../../incidents/change-record.ts";
import { createDbClient, type DbClient } from "../../platform/db/client.ts";
import { inSqlTransaction } from "../../platform/db/sql-transaction.ts";
import { OUTBOX_CHANNEL } from "../outbox/outbox-row.ts";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { webhookEvents } from "../webhook-events.ts";
import { startDeliveryWorker, type DeliveryWorker } from "./delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";
import { OUTBOX_SENDER } from "./outbox-notifier.ts";

const ID = "5d1f0000-0000-4000-8000-00000000c0de";
const APPLICATION = `workbench listen ${OUTBOX_CHANNEL} %`; // tagged with the process (outbox-notifier.ts)
let h: WebhookHarness;
let worker: DeliveryWorker;
let elsewhere: DbClient;

beforeEach(async () => {
  h = await startWebhookHarness();
  elsewhere = createDbClient(h.database.url, { poolSize: 2 });
  worker = await startDeliveryWorker(h.runtime, { cutOverLane, timeoutMs: 2_000, maxSleepMs: 60_000 });
});
afterEach(async () => {
  await worker.stop();
  await elsewhere.$disconnect();
  await h.close();
});

/**
 * Commits a change as another process would: on a database client of its own (no worker of this
 * process takes its heads at production), and without this process's in-process wake (`outbox:wake`).
 */
async function commitElsewhere(seq: number, label: string) {
  const events = webhookEvents();
  const local = events.listeners("outbox:wake");
  events.removeAllListeners("outbox:wake");
  try {
    const change = buildChange(
      seq === 1 ? { kind: "incident.created" } : { kind: "labelChanged" },
      buildSnapshot({ id: ID, label }),
      { seq, producedAt: h.clock.now() },
    );
    await inSqlTransaction(elsewhere, (tx) => notifyChangeSubscribers(tx, [change]));
  } finally {
    for (const l of local) events.on("outbox:wake", l);
  }
}

const listenerPids = async () =>
  (
    await h.database.db.$queryRaw<Array<{ pid: number }>>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE ${APPLICATION}`
  ).map((r) => r.pid);

const allDelivered = async () =>
  (await h.database.db.webhookDelivery.count({ where: { incidentId: ID, state: { not: "delivered" } } })) === 0 &&
  (await h.database.db.webhookDelivery.count({ where: { incidentId: ID } })) > 0;

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

it("after its backend is terminated: reconnects, delivers what was planned meanwhile, and is woken by NOTIFY again", async () => {
  await commitElsewhere(1, "before");
  await h.database.db.$executeRawUnsafe(`NOTIFY ${OUTBOX_CHANNEL}`);
  await until("the first change is delivered (the listener works)", allDelivered);

  const [pid] = await listenerPids();
  expect(pid).toBeDefined();
  await h.database.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
  // Planned while the listener is down, and its NOTIFY lost: found by the claim the reconnect wakes.
  await commitElsewhere(2, "while away");
  await h.database.db.$executeRawUnsafe(`NOTIFY ${OUTBOX_CHANNEL}`);
  await until("the change planned while away is delivered", allDelivered);

  await until("the listener is back", async () => (await listenerPids()).some((p) => p !== pid));
  const started = Date.now();
  const woken = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === ID, 15_000);
  await commitElsewhere(3, "after");
  await h.database.db.$executeRawUnsafe(`NOTIFY ${OUTBOX_CHANNEL}`);
  await woken;
  expect(Date.now() - started).toBeLessThan(10_000); // the safety re-poll is a minute away
  expect(h.receiver.received.map((r) => r.body)).toEqual(
    expect.arrayContaining([{ label: "while away" }, { label: "after" }]),
  );
});

it("skips its own process's NOTIFYs (it was woken in-process already) and wakes for another process's", async () => {
  await commitElsewhere(1, "first");
  await h.database.db.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, ${"another-process"})`;
  await until("the first change is delivered", allDelivered);
  // What follows a delivery (its record's successor claim, a due-time read deferred to the end of
  // its gap) would find the second change by itself: only a worker with nothing left to do tells
  // which NOTIFY woke it.
  await until("the worker settles", () => worker.settled());
  await new Promise((r) => setTimeout(r, 100));
  await until("the worker is still settled", () => worker.settled());

  await commitElsewhere(2, "second");
  await h.database.db.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, ${OUTBOX_SENDER})`;
  await new Promise((r) => setTimeout(r, 600));
  expect(await allDelivered()).toBe(false);

  await h.database.db.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, ${"another-process"})`;
  await until("delivered once another process's NOTIFY arrives", allDelivered, 5_000);
});
