// The webhook engine of the listen bench: north-psap pointed at the bench's receiver with an
// accepted declaration, the planner subscribed, a delivery worker; changes of one incident
// committed one at a time (latency) or planned first and drained (one busy lane's rate).
import { notifyChangeSubscribers, subscribeToChanges } from "../../server/incidents/change-record.ts";
import { inSqlTransaction } from "../../server/platform/db/sql-transaction.ts";
import type { Runtime } from "../../server/runtime.ts";
import { V3_FLAGS } from "../../server/webhook-contracts/v3/capability-flags.ts";
import { startDeliveryWorker } from "../../server/webhooks/delivery/delivery-worker.ts";
import { cutOverLane } from "../../server/webhooks/planning/supersede-queued-events.ts";
import { planDeliveriesOnChange } from "../../server/webhooks/planning/plan-deliveries.ts";
import { buildChange, buildSnapshot } from "../../server/webhooks/testing/build-change.ts";
import { webhookEvents } from "../../server/webhooks/webhook-events.ts";

const incidentId = (i: number) => `be000000-0000-4000-8000-${String(900 + i).padStart(12, "0")}`;

export async function startEngine(runtime: Runtime, receiverUrl: string) {
  const { db, clock } = runtime;
  const now = clock.now();
  await db.integration.update({ where: { key: "north-psap" }, data: { receiverUrl, insecureDev: true } });
  const capabilities = {
    status: "active",
    version: "3.0",
    majorVersion: 3,
    flags: [...V3_FLAGS],
    checkedAt: now,
    nextCheckAt: new Date(now.getTime() + 86_400_000),
  };
  await db.webhookCapabilities.upsert({
    where: { integrationKey: "north-psap" },
    create: { integrationKey: "north-psap", ...capabilities },
    update: capabilities,
  });
  const unsubscribe = subscribeToChanges(planDeliveriesOnChange);
  const events = webhookEvents();
  let worker = await startDeliveryWorker(runtime, { cutOverLane });
  const commit = (id: string, seq: number) =>
    inSqlTransaction(db, (tx) =>
      notifyChangeSubscribers(tx, [
        buildChange(
          seq === 1 ? { kind: "incident.created" } : { kind: "labelChanged" },
          buildSnapshot({ id, label: seq === 1 ? null : `label ${seq}` }),
          { seq, producedAt: clock.now() },
        ),
      ]),
    );
  const delivered = (id: string, n: number) =>
    new Promise<void>((resolve, reject) => {
      let seen = 0;
      const on = (e: { incidentId: string }) => {
        if (e.incidentId === id && ++seen === n) done(resolve);
      };
      const timer = setTimeout(() => done(() => reject(new Error(`${seen} of ${n} delivered in 120 s`))), 120_000);
      const done = (then: () => void) => {
        clearTimeout(timer);
        events.off("delivery:delivered", on);
        then();
      };
      events.on("delivery:delivered", on);
    });

  return {
    /** `n` changes of one incident, each committed once the previous is delivered: planned → delivered, and the attempt's own time. */
    async oneAtATime(round: number, n: number) {
      const id = incidentId(round);
      const latencies: number[] = [];
      const attemptMs: number[] = [];
      const onAttempt = (e: { incidentId: string; durationMs: number }) => {
        if (e.incidentId === id) attemptMs.push(e.durationMs);
      };
      events.on("delivery:attempted", onAttempt);
      for (let seq = 1; seq <= n; seq++) {
        const done = delivered(id, 1);
        const t0 = performance.now();
        await commit(id, seq);
        await done;
        latencies.push(performance.now() - t0);
      }
      events.off("delivery:attempted", onAttempt);
      return { latencies, attemptMs };
    },
    /** `n` events of one incident planned while no worker runs, then drained by a new one: events/s. */
    async drainOneIncident(round: number, n: number) {
      await worker.stop();
      const id = incidentId(100 + round);
      for (let seq = 1; seq <= n; seq++) await commit(id, seq);
      const done = delivered(id, n);
      const t0 = performance.now();
      worker = await startDeliveryWorker(runtime, { cutOverLane });
      await done;
      return Math.round(n / ((performance.now() - t0) / 1000));
    },
    /** The status of north-psap's next discovery. */
    nextDiscovery: () =>
      new Promise<string>((resolve) => {
        const on = (e: { integrationKey: string; status: string }) => {
          if (e.integrationKey !== "north-psap") return;
          events.off("integration:discovered", on);
          resolve(e.status);
        };
        events.on("integration:discovered", on);
      }),
    async stop() {
      await worker.stop();
      unsubscribe();
    },
  };
}
export type Engine = Awaited<ReturnType<typeof startEngine>>;
