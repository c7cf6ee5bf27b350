// Per-request lookups of an embedded receiver (its integration and its fault row),
// cached briefly: two queries per request halved /health throughput under load.
// A fault set in this process applies at once (receiver:fault-changed clears the
// entry); one set by another process within CACHE_MS. Whether a cached fault is
// active is still judged on the workbench clock at every request.
import type { DbClient } from "../platform/db/client.ts";
import type { StoredFault } from "./faults.ts";
import { findEmbeddedReceiver } from "./receiver-capabilities.ts";
import { receiverEvents } from "./receiver-events.ts";

const CACHE_MS = 1_000;

export type ReceiverLookup = { agencyId: string; fault: StoredFault | null };

export function createReceiverLookup(options: { db: DbClient }) {
  const cache = new Map<string, { at: number; value: ReceiverLookup | null }>();
  const forget = ({ integrationKey }: { integrationKey: string }) => cache.delete(integrationKey);
  receiverEvents.on("receiver:fault-changed", forget);

  async function load(key: string): Promise<ReceiverLookup | null> {
    const [integration, fault] = await Promise.all([
      findEmbeddedReceiver({ db: options.db, key }),
      options.db.integrationFault.findUnique({ where: { integrationKey_side: { integrationKey: key, side: "receiver" } } }),
    ]);
    return integration ? { agencyId: integration.agencyId, fault } : null;
  }

  return {
    async get(key: string): Promise<ReceiverLookup | null> {
      const hit = cache.get(key);
      // performance.now() is monotonic process time for the cache only, not workbench time.
      if (hit && performance.now() - hit.at < CACHE_MS) return hit.value;
      const value = await load(key);
      cache.set(key, { at: performance.now(), value });
      return value;
    },
    close: () => receiverEvents.off("receiver:fault-changed", forget),
  };
}
