// Where and whether a lane's events can go now: the integration's receiver URL
// and insecure-dev mark, whether its /about declaration is accepted, and its
// dispatcher-side network fault (evaluated against the workbench clock at send time).
// Cached for a second per worker: a burst would otherwise read the same rows for
// every event; `integrations set`, discovery and fault changes clear it at once.
import type { DbClient } from "../../platform/db/client.ts";
import { webhookEvents } from "../webhook-events.ts";
import { receiverEvents } from "../../receiver/receiver-events.ts";
import type { StoredFault } from "../../receiver/faults.ts";

export type DeliveryTarget = { key: string; receiverUrl: string; insecureDev: boolean; accepted: boolean; nextCheckAt: Date | null; dispatcherFault: StoredFault | null };

const TTL_MS = 1_000;

export function createDeliveryTargetLoader(db: DbClient, elapsedMs: () => number = () => performance.now()) {
  const cache = new Map<string, { at: number; value: Promise<DeliveryTarget | null> }>();
  const clear = () => cache.clear();
  webhookEvents().on("integration:discovered", clear);
  receiverEvents.on("receiver:fault-changed", clear);
  return {
    load(key: string): Promise<DeliveryTarget | null> {
      const hit = cache.get(key);
      if (hit && elapsedMs() - hit.at < TTL_MS) return hit.value;
      const value = (async () => {
        const integration = await db.integration.findUnique({ where: { key } });
        if (!integration) return null;
        const [caps, dispatcherFault] = await Promise.all([
          db.webhookCapabilities.findUnique({ where: { integrationKey: key } }),
          db.integrationFault.findUnique({ where: { integrationKey_side: { integrationKey: key, side: "dispatcher" } } }),
        ]);
        return { key, receiverUrl: integration.receiverUrl, insecureDev: integration.insecureDev, accepted: caps?.status === "active", nextCheckAt: caps?.nextCheckAt ?? null, dispatcherFault };
      })();
      cache.set(key, { at: elapsedMs(), value });
      value.catch(() => cache.delete(key));
      return value;
    },
    clear,
    close: () => {
      webhookEvents().off("integration:discovered", clear);
      receiverEvents.off("receiver:fault-changed", clear);
    },
  };
}
export type DeliveryTargetLoader = ReturnType<typeof createDeliveryTargetLoader>;
