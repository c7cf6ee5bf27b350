// The delivery worker of one process. Any number of processes may run one on
// the same PostgreSQL: claims are one SKIP LOCKED statement, so lanes spread
// across workers and each lane stays strictly sequential.
//
// Wake-ups, no polling delay: new work (an in-process signal from the planner,
// and LISTEN webhook_outbox for other processes), a finished delivery (its
// lane's next event is ready), a workbench clock jump (clock `changed`: due
// retries and expiries happen at once), and one timer set to the earliest due
// time from the due-time index (not a timer per incident).
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Runtime } from "../../platform/runtime.ts";
import type { Worker } from "../../workers.ts";
import { OUTBOX_CHANNEL } from "../planning/plan-deliveries.ts";
import { webhookEvents } from "../webhook-events.ts";
import { claimDeliveries, nextWakeInMs } from "./claim-deliveries.ts";
import { deliverEvent } from "./deliver-event.ts";
import { createDeliveryTargetLoader } from "./load-delivery-target.ts";
import { REQUEST_TIMEOUT_MS } from "./send-request.ts";

export type DeliveryWorkerOptions = {
  workerId?: string;
  /** Lanes in flight at once per worker. */
  concurrency?: number;
  timeoutMs?: number;
  /** A claim older than this, in real time (not the workbench clock), is taken to be from a dead worker and re-claimed. Must exceed timeoutMs. */
  leaseMs?: number;
  /** Safety re-poll in case a notification was lost (listener reconnecting). */
  maxSleepMs?: number;
};

export async function startDeliveryWorker(runtime: Runtime, options: DeliveryWorkerOptions = {}): Promise<Worker & { workerId: string; wake: () => void }> {
  const workerId = options.workerId ?? `delivery-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 64;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? timeoutMs + 20_000;
  const maxSleepMs = options.maxSleepMs ?? 30_000;
  const targets = createDeliveryTargetLoader(runtime.db);
  const deps = { runtime, workerId, targets, timeoutMs };
  const log = runtime.logger.child({ worker: workerId });

  let stopped = false;
  let pumping = false;
  let again = false;
  let inflight = 0;
  let timer: NodeJS.Timeout | undefined;
  const idle = new Set<() => void>();

  // Coalesced to one claim per event-loop turn: under load many deliveries finish in the
  // same turn, and one claim for all their freed slots beats one claim each.
  let wakeQueued = false;
  const wake = () => {
    if (stopped || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      if (stopped) return;
      if (pumping) again = true;
      else void pump();
    });
  };

  async function pump() {
    pumping = true;
    try {
      do {
        again = false;
        const free = concurrency - inflight;
        if (free <= 0) break; // a finishing delivery wakes us
        const rows = await claimDeliveries(runtime.db, { now: runtime.clock.now(), leaseMs, workerId, limit: free });
        for (const row of rows) {
          inflight++;
          deliverEvent(deps, row)
            .catch((err: Error) => log.error({ err, requestId: row.requestId }, "delivery step failed; the lease will retry it"))
            .finally(() => {
              inflight--;
              if (inflight === 0) for (const f of idle) f();
              wake();
            });
        }
        if (rows.length === free) again = true;
      } while (again && !stopped);
      if (!stopped) await scheduleTimer();
    } catch (err) {
      log.error({ err }, "claiming deliveries failed; retrying in 1 s");
      clearTimeout(timer);
      timer = setTimeout(wake, 1_000);
    } finally {
      pumping = false;
    }
    if (again && !stopped) wake();
  }

  async function scheduleTimer() {
    const wakeIn = await nextWakeInMs(runtime.db, { now: runtime.clock.now() });
    clearTimeout(timer);
    const delay = wakeIn === null ? maxSleepMs : Math.min(wakeIn, maxSleepMs);
    timer = setTimeout(wake, delay + 1);
    timer.unref();
  }

  // Other processes' plans arrive by NOTIFY after their commit.
  const listener = new pg.Client({ connectionString: runtime.databaseUrl });
  listener.on("notification", wake);
  listener.on("error", (err) => log.warn({ err }, "outbox listener failed; the due-time timer still runs"));
  await listener.connect();
  await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);

  const events = webhookEvents();
  const onLocal = () => wake();
  events.on("outbox:wake", onLocal);
  runtime.clock.on("changed", wake);
  wake();

  return {
    name: "webhook-delivery",
    workerId,
    wake,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      events.off("outbox:wake", onLocal);
      runtime.clock.off("changed", wake);
      targets.close();
      await listener.end().catch(() => {});
      // Let attempts in flight record their result (each is bounded by the request timeout).
      if (inflight > 0) await new Promise<void>((resolve) => idle.add(resolve));
    },
  };
}
