// Crash safety and scale-out (spec, Delivery rules; docs/webhooks.md): a worker process killed with
// SIGKILL mid-burst loses nothing and reorders nothing — its in-flight rows are
// re-claimed after their (real-time) lease with the same Service-Request-Id — and two
// workers on one database never have two attempts of one incident in flight.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { startWebhookHarness, waitForEvents, type WebhookHarness } from "../testing/webhook-harness.ts";
import { createDbClient } from "../../platform/db/client.ts";
import { AGENCY } from "../../directory/seed-ids.ts";
import { startDeliveryWorker } from "./delivery-worker.ts";
import { cutOverLane } from "../planning/supersede-queued-events.ts";
import { LANE_CLAIM_DEPTH } from "../outbox/lane-statements.ts";
import { getServiceToken } from "../sending/service-token-cache.ts";

const incidentId = (i: number) => `5d1f0000-0000-4000-8000-${String(i).padStart(12, "0")}`;
let h: WebhookHarness | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await h?.close();
});

/** Per incident: created, then labels L1..Ln (distinct, so order is visible at the receiver). */
async function commitBurst(harness: WebhookHarness, incidents: number, labels: number) {
  for (let i = 0; i < incidents; i++) {
    const id = incidentId(i);
    await harness.commit(
      buildChange({ kind: "incident.created" }, buildSnapshot({ id }), { seq: 1, producedAt: harness.clock.now() }),
    );
    for (let n = 1; n <= labels; n++)
      await harness.commit(
        buildChange({ kind: "labelChanged" }, buildSnapshot({ id, label: `L${n}` }), {
          seq: n + 1,
          producedAt: harness.clock.now(),
        }),
      );
  }
}

function receivedOrder(harness: WebhookHarness, id: string) {
  return harness.receiver.received
    .filter((r) => r.incidentId === id)
    .map((r) => (r.path === "/v3/incidents" ? "created" : (r.body as { label: string }).label));
}

/** A delivery worker in a process of its own ("doomed", 4 s lease, 3 s timeout), for a test to SIGKILL. */
function spawnDoomedWorker(harness: WebhookHarness) {
  const child = spawn("node_modules/.bin/tsx", ["server/webhooks/testing/run-delivery-worker.ts"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: harness.database.url,
      PUBLIC_URL: "http://127.0.0.1:9",
      NODE_ENV: "test",
      LEASE_MS: "4000",
      TIMEOUT_MS: "3000",
      WORKER_ID: "doomed",
    },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  });
  return child;
}

describe("crash safety and scale-out", () => {
  it("after SIGKILL of a worker process mid-burst, in-flight events are retried with the same Service-Request-Id; nothing lost or reordered", async () => {
    h = await startWebhookHarness();
    await h.pointIntegration("north-psap", ["incident.created", "labelChanged"]);
    const harness = h;
    await commitBurst(harness, 5, 4);
    let hung = 0;
    const allHung = new Promise<void>((resolve) =>
      harness.receiver.respondWith(() => {
        if (++hung === 5) resolve();
        return 0;
      }),
    );

    const child = spawnDoomedWorker(harness);
    await allHung; // five heads in flight in the child, one per incident
    const inFlight = await harness.database.db.webhookDelivery.findMany({
      where: { state: "delivering" },
      orderBy: { id: "asc" },
    });
    expect(inFlight.map((r) => r.claimedBy)).toEqual(Array(5).fill("doomed"));
    process.kill(-child.pid!, "SIGKILL");
    await once(child, "exit");

    harness.receiver.respondWith(() => 200);
    const delivered = waitForEvents("delivery:delivered", 25);
    // The dead worker's lease (4 s of real time from its claims; a workbench clock jump would
    // not end it, claim-lease.int.test.ts) runs out; the new worker's timer wakes it then.
    const worker = await startDeliveryWorker(harness.runtime, { cutOverLane, timeoutMs: 3_000, leaseMs: 4_000 });
    cleanups.push(() => worker.stop());
    await delivered;

    for (let i = 0; i < 5; i++)
      expect(receivedOrder(harness, incidentId(i))).toEqual(["created", "created", "L1", "L2", "L3", "L4"]);
    const hungIds = harness.receiver.received.slice(0, 5).map((r) => r.headers["service-request-id"]);
    const retriedIds = harness.receiver.received
      .slice(5)
      .filter((r) => r.path === "/v3/incidents")
      .map((r) => r.headers["service-request-id"]);
    expect(new Set(retriedIds)).toEqual(new Set(hungIds));
    expect(await harness.database.db.webhookDelivery.count({ where: { state: "delivered" } })).toBe(25);
  });

  it("after SIGKILL with successors claimed ahead: the lease frees each lane's head first, and the successor follows it in order", async () => {
    h = await startWebhookHarness();
    await h.pointIntegration("north-psap", ["incident.created", "labelChanged"]);
    const harness = h;
    // One label more than a record claims behind its event: the last one stays pending.
    const labels = LANE_CLAIM_DEPTH + 1;
    await commitBurst(harness, 3, labels);
    let hung = 0;
    const allHung = new Promise<void>((resolve) =>
      harness.receiver.respondWith((r) => {
        if ((r.body as { label?: string }).label !== "L1") return 200;
        if (++hung === 3) resolve();
        return 0;
      }),
    );
    const child = spawnDoomedWorker(harness);
    await allHung; // each lane: created delivered, L1 in flight, the next ones claimed behind it (decision 0042)
    const held = await harness.database.db.webhookDelivery.findMany({
      where: { state: "delivering" },
      orderBy: { id: "asc" },
    });
    expect(held.map((r) => [r.incidentId, r.claimedBy])).toEqual(
      [0, 1, 2].flatMap((i) => Array(LANE_CLAIM_DEPTH).fill([incidentId(i), "doomed"])),
    );
    process.kill(-child.pid!, "SIGKILL");
    await once(child, "exit");

    // Answers that take a while: two attempts of one lane at once would overlap at the receiver.
    harness.receiver.respondWith(() => new Promise((resolve) => setTimeout(() => resolve(200), 30)));
    const delivered = waitForEvents("delivery:delivered", 3 * labels);
    const worker = await startDeliveryWorker(harness.runtime, { cutOverLane, timeoutMs: 3_000, leaseMs: 4_000 });
    cleanups.push(() => worker.stop());
    await delivered;

    for (let i = 0; i < 3; i++)
      expect(receivedOrder(harness, incidentId(i))).toEqual([
        "created",
        "L1",
        ...Array.from({ length: labels }, (_, n) => `L${n + 1}`),
      ]);
    expect(harness.receiver.maxConcurrentPerIncident).toBe(1);
    expect(await harness.database.db.webhookDelivery.count({ where: { state: "delivered" } })).toBe(3 * (1 + labels));
  });

  it("two workers on one database: never two attempts of one incident in flight, order preserved, both do work", async () => {
    h = await startWebhookHarness();
    await h.pointIntegration("north-psap", ["incident.created", "labelChanged"]);
    const harness = h;
    h.receiver.respondWith(async () => {
      await new Promise((r) => setTimeout(r, Math.random() * 4));
      return 200;
    });
    const secondDb = createDbClient(harness.database.url, { poolSize: 5 });
    cleanups.push(() => secondDb.$disconnect());
    const workers = [
      await startDeliveryWorker(harness.runtime, { cutOverLane, workerId: "w1", concurrency: 8 }),
      await startDeliveryWorker({ ...harness.runtime, db: secondDb }, { cutOverLane, workerId: "w2", concurrency: 8 }),
    ];
    cleanups.push(() => Promise.all(workers.map((w) => w.stop())));
    const byWorker = new Map<string, number>();
    const count = (e: { workerId: string }) => {
      byWorker.set(e.workerId, (byWorker.get(e.workerId) ?? 0) + 1);
      return true;
    };
    const attempted = waitForEvents("delivery:attempted", 30 * 6, count, 60_000);
    await commitBurst(harness, 30, 5);
    await attempted;

    expect(harness.receiver.maxConcurrentPerIncident).toBe(1);
    for (let i = 0; i < 30; i++)
      expect(receivedOrder(harness, incidentId(i))).toEqual(["created", "L1", "L2", "L3", "L4", "L5"]);
    expect(byWorker.get("w1")).toBeGreaterThan(0);
    expect(byWorker.get("w2")).toBeGreaterThan(0);
  });

  it("a stopping worker gives the heads it claimed ahead back to their lanes at once; attempts in flight still record their result", async () => {
    h = await startWebhookHarness();
    await h.pointIntegration("north-psap", ["incident.created"]);
    const harness = h;
    let started = 0;
    const twoInFlight = new Promise<void>((resolve) =>
      harness.receiver.respondWith(async () => {
        if (++started === 2) resolve();
        await new Promise((r) => setTimeout(r, 300));
        return 200;
      }),
    );
    const worker = await startDeliveryWorker(harness.runtime, {
      cutOverLane,
      workerId: "w1",
      concurrency: 2,
      prefetch: 3,
    });
    for (let i = 0; i < 5; i++)
      await harness.commit(
        buildChange({ kind: "incident.created" }, buildSnapshot({ id: incidentId(i) }), {
          seq: 1,
          producedAt: harness.clock.now(),
        }),
      );
    await twoInFlight;
    const claimed = await harness.database.db.webhookDelivery.count({
      where: { state: "delivering", claimedBy: "w1" },
    });
    expect(claimed).toBe(5); // two sending, three claimed ahead
    await worker.stop();

    const rows = await harness.database.db.webhookDelivery.findMany({ orderBy: { id: "asc" } });
    expect(rows.filter((r) => r.state === "delivered")).toHaveLength(2);
    const released = rows.filter((r) => r.state !== "delivered");
    expect(released.map((r) => [r.state, r.claimedBy, r.attemptCount])).toEqual(Array(3).fill(["pending", null, 0]));
    expect(harness.receiver.received).toHaveLength(2);
  });

  it("a head claimed ahead starts only while its lease still covers a whole attempt; a late one goes back and is claimed afresh", async () => {
    h = await startWebhookHarness();
    await h.pointIntegration("north-psap", ["incident.created"]);
    const harness = h;
    const timeoutMs = 2_000;
    const leaseMs = 2_500; // close to the timeout: a head that waited 700 ms has 1.8 s of lease, less than an attempt may take
    const leftAtSend: number[] = [];
    harness.receiver.respondWith(async (req) => {
      const [row] = await harness.database.db.$queryRaw<Array<{ leftMs: number }>>`
        SELECT (extract(epoch FROM "leaseExpiresAt" - clock_timestamp()) * 1000)::float8 AS "leftMs"
        FROM "WebhookDelivery" WHERE "requestId" = ${String(req.headers["service-request-id"])}::uuid`;
      leftAtSend.push(row!.leftMs);
      await new Promise((r) => setTimeout(r, 700));
      return 200;
    });
    // The signing key and the Publisher token exist before the first attempt: what is measured is how
    // long a head waited after its claim, not a key generated on a busy machine inside the first attempt.
    await getServiceToken(harness.runtime, AGENCY.northPsap, "Publisher");
    const delivered = waitForEvents("delivery:delivered", 3);
    const worker = await startDeliveryWorker(harness.runtime, {
      cutOverLane,
      workerId: "w1",
      concurrency: 1,
      prefetch: 2,
      timeoutMs,
      leaseMs,
    });
    cleanups.push(() => worker.stop());
    for (let i = 0; i < 3; i++)
      await harness.commit(
        buildChange({ kind: "incident.created" }, buildSnapshot({ id: incidentId(i) }), {
          seq: 1,
          producedAt: harness.clock.now(),
        }),
      );
    await delivered;

    expect(harness.receiver.received).toHaveLength(3);
    expect(leftAtSend).toHaveLength(3);
    for (const left of leftAtSend) expect(left).toBeGreaterThan(timeoutMs);
  });
});
