// Where and whether a lane's events can go now: the integration's receiver URL
// and insecure-dev mark, and whether its /about declaration is accepted.
// Cached for a second per worker: a burst would otherwise read the same two
// rows for every event; `integrations set` and discovery clear it at once.
import type { DbClient } from "../../platform/db/client.ts";
import { webhookEvents } from "../webhook-events.ts";

export type DeliveryTarget = { key: string; receiverUrl: string; insecureDev: boolean; accepted: boolean; nextCheckAt: Date | null };

const TTL_MS = 1_000;

export function createDeliveryTargetLoader(db: DbClient, elapsedMs: () => number = () => performance.now()) {
  const cache = new Map<string, { at: number; value: Promise<DeliveryTarget | null> }>();
  const clear = () => cache.clear();
  webhookEvents().on("integration:discovered", clear);
  return {
    load(key: string): Promise<DeliveryTarget | null> {
      const hit = cache.get(key);
      if (hit && elapsedMs() - hit.at < TTL_MS) return hit.value;
      const value = (async () => {
        const integration = await db.integration.findUnique({ where: { key } });
        if (!integration) return null;
        const caps = await db.webhookCapabilities.findUnique({ where: { integrationKey: key } });
        return { key, receiverUrl: integration.receiverUrl, insecureDev: integration.insecureDev, accepted: caps?.status === "active", nextCheckAt: caps?.nextCheckAt ?? null };
      })();
      cache.set(key, { at: elapsedMs(), value });
      value.catch(() => cache.delete(key));
      return value;
    },
    clear,
    close: () => webhookEvents().off("integration:discovered", clear),
  };
}
export type DeliveryTargetLoader = ReturnType<typeof createDeliveryTargetLoader>;
