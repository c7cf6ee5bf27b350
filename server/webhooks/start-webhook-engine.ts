// The webhook engine of one process (registered in server/workers.ts): the
// planner subscribed to incident changes, the NOTIFY that tells other processes'
// workers of what it planned, discovery, and a delivery worker unless the
// process is API-only (DELIVERY_WORKERS=false: another process sends).
import { subscribeToChanges } from "../incidents/change-record.ts";
import type { Runtime } from "../runtime.ts";
import type { Worker } from "../platform/worker.ts";
import { startDeliveryWorker } from "./delivery/delivery-worker.ts";
import { startDiscoveryWorker } from "./discovery/discovery-worker.ts";
import { startOutboxNotifier } from "./delivery/outbox-notifier.ts";
import { planDeliveriesOnChange } from "./planning/plan-deliveries.ts";
import { cutOverLane } from "./planning/supersede-queued-events.ts";
import { listenerRegistry } from "./listen/listener-registry.ts";
import { closeListeners } from "./listen/listener-session.ts";

export async function startWebhookEngine(runtime: Runtime): Promise<Worker> {
  const unsubscribe = subscribeToChanges(planDeliveriesOnChange);
  const notifier = startOutboxNotifier(runtime, { deliversItself: runtime.env.DELIVERY_WORKERS });
  const discovery = await startDiscoveryWorker(runtime);
  // Delivery cuts a lane over through the planner's function, handed in here (decision 0060).
  const delivery = runtime.env.DELIVERY_WORKERS
    ? await startDeliveryWorker(runtime, { cutOverLane })
    : { stop: async () => {} };
  // A delivery for a listener this process does not hold says why from the attachment row (decision 0052).
  listenerRegistry().deps = { db: runtime.db, clock: runtime.clock };
  let listenersClosed: Promise<void> = Promise.resolve();
  return {
    name: "webhooks",
    listening: () => discovery.listening?.(),
    closing: () => {
      listenersClosed = closeListeners(runtime).catch((err: Error) =>
        runtime.logger.warn({ err }, "could not mark listeners disconnected"),
      );
    },
    async stop() {
      unsubscribe();
      await Promise.all([discovery.stop(), delivery.stop(), notifier.stop(), listenersClosed]);
    },
  };
}
