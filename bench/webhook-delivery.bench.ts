// Webhook delivery end to end: changes committed the way the
// aggregate commits them (planner inside the transaction) → claimed → POSTed
// to a local receiver → 200 recorded. On the embedded PostgreSQL and, when
// TEST_DATABASE_URL is set, on that external server. Figures:
//   0. drain: events/s delivered from an outbox holding 5 events for each of 1,000 incidents
//      (after one unmeasured drain of the same shape: V8's optimising JIT, as the inbound bench's
//      warm-up; the first drain of a process ran ~25 % slower per event);
//   1. events/s end to end with 1,000 active incidents (5 events each, 16 committers, worker running);
//   2. p50/p99 change-to-delivery latency at 200 events/s (10 s);
//   3. a bare loop POSTing the same bodies to the same receiver (64 in flight): the limit.
// Loopback only; every phase is bounded in count and time.
import { inSqlTransaction } from "../server/platform/db/sql-transaction.ts";
import { WorkbenchClock } from "../server/platform/clock/clock.ts";
import { applyMigrations } from "../server/platform/db/apply-migrations.ts";
import { createDbClient } from "../server/platform/db/client.ts";
import { parseEnv } from "../server/platform/env.ts";
import { createLogger } from "../server/platform/logger.ts";
import type { Runtime } from "../server/runtime.ts";
import { SigningKeyStore } from "../server/platform/signing-keys.ts";
import { notifyChangeSubscribers, subscribeToChanges } from "../server/incidents/change-record.ts";
import { seedDatabase } from "../prisma/seed.ts";
import { V3_FLAGS } from "../server/webhook-contracts/v3/capability-flags.ts";
import { startDeliveryWorker } from "../server/webhooks/delivery/delivery-worker.ts";
import { cutOverLane } from "../server/webhooks/planning/supersede-queued-events.ts";
import { sendRequest } from "../server/webhooks/sending/send-request.ts";
import { EMPTY_ALLOW_LIST } from "../server/platform/network/outbound-policy.ts";
import { planDeliveriesOnChange } from "../server/webhooks/planning/plan-deliveries.ts";
import { buildChange, buildSnapshot } from "../server/webhooks/testing/build-change.ts";
import { webhookEvents } from "../server/webhooks/webhook-events.ts";
import { onEachDatabase } from "./lib/bench-databases.ts";
import { startChild, stopChild } from "./lib/load.ts";

const INCIDENTS = 1_000;
const EVENTS_PER_INCIDENT = 5;
const RATE = 200;
const RATE_SECONDS = 10;
const incidentId = (i: number) => `be000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const pct = (xs: number[], p: number) =>
  xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function prepareDatabase(url: string) {
  await applyMigrations(url);
  const db = createDbClient(url, { poolSize: 24 });
  await seedDatabase({ db, clock: new WorkbenchClock(), publicUrl: "http://127.0.0.1:9" });
  return db;
}

async function measure(label: string, databaseUrl: string, receiverUrl: string) {
  const db = await prepareDatabase(databaseUrl);
  const clock = new WorkbenchClock();
  const runtime: Runtime = {
    env: parseEnv({ NODE_ENV: "production", PUBLIC_URL: "http://127.0.0.1:9", DATABASE_URL: databaseUrl }),
    db,
    databaseUrl,
    clock,
    keys: new SigningKeyStore({ db, clock }),
    logger: createLogger({ level: "silent" }),
    databaseMode: "external",
  };
  const now = clock.now();
  await db.integration.update({ where: { key: "north-psap" }, data: { receiverUrl: receiverUrl, insecureDev: true } });
  await db.webhookCapabilities.create({
    data: {
      integrationKey: "north-psap",
      status: "active",
      version: "3.0",
      majorVersion: 3,
      flags: [...V3_FLAGS],
      checkedAt: now,
      nextCheckAt: new Date(now.getTime() + 86_400_000),
    },
  });
  const unsubscribe = subscribeToChanges(planDeliveriesOnChange);
  const events = webhookEvents();
  const commit = (i: number, seq: number) => {
    const snapshot = buildSnapshot({ id: incidentId(i), label: seq === 1 ? null : `label ${seq}` });
    return inSqlTransaction(db, (tx) =>
      notifyChangeSubscribers(tx, [
        buildChange(seq === 1 ? { kind: "incident.created" } : { kind: "labelChanged" }, snapshot, {
          seq,
          producedAt: clock.now(),
        }),
      ]),
    );
  };
  const total = INCIDENTS * EVENTS_PER_INCIDENT;
  const deliveredCount = (n: number) =>
    new Promise<void>((resolve, reject) => {
      let seen = 0;
      const on = () => {
        if (++seen === n) {
          events.off("delivery:delivered", on);
          clearTimeout(timer);
          resolve();
        }
      };
      const timer = setTimeout(() => {
        events.off("delivery:delivered", on);
        reject(new Error(`only ${seen} of ${n} delivered within 120 s`));
      }, 120_000);
      events.on("delivery:delivered", on);
    });
  /** 16 concurrent committers; seq offset so every round is new changes of the same 1,000 incidents. */
  const commitRound = async (firstSeq: number, firstIncident = 0) => {
    const jobs = Array.from(
      { length: total },
      (_, k) => [firstIncident + (k % INCIDENTS), firstSeq + Math.floor(k / INCIDENTS)] as const,
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < jobs.length) {
          const [i, seq] = jobs[next++]!;
          await commit(i, seq);
        }
      }),
    );
  };
  // 0. Drain: 5,000 events already planned over 1,000 incidents; the worker starts and empties the outbox.
  // Once unmeasured on 1,000 other incidents (warm-up), then measured, each by a new worker.
  const drain = async (firstIncident: number) => {
    await commitRound(1, firstIncident);
    const drained = deliveredCount(total);
    const d0 = performance.now();
    const w = await startDeliveryWorker(runtime, { cutOverLane, concurrency: 64 });
    await drained;
    return { worker: w, rate: Math.round(total / ((performance.now() - d0) / 1000)) };
  };
  await (await drain(INCIDENTS)).worker.stop();
  const { worker, rate: drainRate } = await drain(0);
  let seq = EVENTS_PER_INCIDENT + 1;
  try {
    // 1. End to end: committers and the worker at once (the same process, like one workbench).
    const done = deliveredCount(total);
    const started = performance.now();
    await commitRound(seq);
    seq += EVENTS_PER_INCIDENT;
    const committedAt = performance.now();
    await done;
    const seconds = (performance.now() - started) / 1000;
    const throughput = {
      "drain events/s (pre-planned)": drainRate,
      "end-to-end events/s": Math.round(total / seconds),
      "commit-only events/s": Math.round(total / ((committedAt - started) / 1000)),
    };

    // 2. Latency at 200 events/s: label changes spread over the 1,000 incidents. Timed from the
    // planner's event (inside the change's transaction, just before its commit) to the recorded 200.
    const plannedAt = new Map<string, number>();
    const latencies: number[] = [];
    const onPlanned = (e: { requestId: string }) => plannedAt.set(e.requestId, performance.now());
    const onDelivered = (e: { requestId: string }) => {
      const t = plannedAt.get(e.requestId);
      if (t !== undefined) latencies.push(performance.now() - t);
    };
    events.on("delivery:planned", onPlanned);
    events.on("delivery:delivered", onDelivered);
    const count = RATE * RATE_SECONDS;
    const t0 = performance.now();
    const inflight: Promise<unknown>[] = [];
    for (let k = 0; k < count; k++) {
      const wait = t0 + (k * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inflight.push(commit(k % INCIDENTS, seq + Math.floor(k / INCIDENTS)));
    }
    await Promise.all(inflight);
    const deadline = performance.now() + 30_000;
    while (latencies.length < count && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    events.off("delivery:planned", onPlanned);
    events.off("delivery:delivered", onDelivered);
    const latency = {
      events: count,
      delivered: latencies.length,
      "p50 ms": +pct(latencies, 50).toFixed(1),
      "p99 ms": +pct(latencies, 99).toFixed(1),
    };
    return { label, throughput, latency };
  } finally {
    await worker.stop();
    unsubscribe();
    await db.$disconnect();
  }
}

/** The engine's own path to a loopback insecure-dev receiver (policy checked, as deliveries are). */
const LOOPBACK_DEV = {
  kind: "checked",
  insecureDev: true,
  policy: { mode: "local", allow: EMPTY_ALLOW_LIST },
} as const;

async function bareLoop(receiverUrl: string, seconds = 5) {
  const body = JSON.stringify({ label: "label 2" });
  const until = performance.now() + seconds * 1000;
  let sent = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (performance.now() < until) {
        const r = await sendRequest({
          url: `${receiverUrl}/v3/incidents/${incidentId(1)}/label`,
          method: "PATCH",
          headers: { "content-type": "application/json", "service-request-id": "x", authorization: "Bearer x" },
          body,
          target: LOOPBACK_DEV,
        });
        if (r.status === 200) sent++;
      }
    }),
  );
  return Math.round(sent / seconds);
}

export async function run() {
  const base = Number(process.env.BENCH_PORT ?? 3210);
  const receiverPort = base + 2;
  const receiverUrl = `http://127.0.0.1:${receiverPort}`;
  const receiver = await startChild(
    "node",
    ["bench/lib/bare-receiver.mjs"],
    { PORT: String(receiverPort) },
    `${receiverUrl}/`,
  );
  const rows: Array<Record<string, unknown>> = [];
  try {
    const bare = await bareLoop(receiverUrl);
    await onEachDatabase("webhook-delivery", async (label, url) => {
      rows.push(await measure(label, url, receiverUrl));
    });
    console.log("\n## Webhook delivery end to end (change committed → 200 recorded), one local receiver");
    console.table(
      rows.map((r) => ({
        database: r.label,
        ...(r.throughput as object),
        "bare loop req/s": bare,
        "drain / bare": +((r.throughput as Record<string, number>)["drain events/s (pre-planned)"]! / bare).toFixed(2),
      })),
    );
    console.log(`\n## Change-to-delivery latency at ${RATE} events/s for ${RATE_SECONDS} s`);
    console.table(rows.map((r) => ({ database: r.label, ...(r.latency as object) })));
  } finally {
    await stopChild(receiver);
  }
}
