// Per-request lookups of an embedded receiver (its integration and its fault row),
// cached briefly: two queries per request halved /health throughput under load.
// A fault set in this process applies at once (receiver:fault-changed clears the
// entry); one set by another process within CACHE_MS. Whether a cached fault is
// active is still judged on the workbench clock at every request.
//
// Only receivers that exist are remembered, at most MAX_ENTRIES of them: a key
// nobody configured is looked up again each time, so requests to random keys
// cannot grow the cache (they did, for ever), and a receiver configured after a
// miss answers at once.
import type { DbClient } from "../platform/db/client.ts";
import type { StoredFault } from "../directory/integration-faults.ts";
import { findEmbeddedReceiver } from "./receiver-capabilities.ts";
import { receiverEvents } from "./receiver-events.ts";

const CACHE_MS = 1_000;
/** Far above any workbench's number of embedded receivers (one per integration). */
const MAX_ENTRIES = 1_000;

export type ReceiverLookup = { agencyId: string; fault: StoredFault | null };

export function createReceiverLookup(options: { db: DbClient; maxEntries?: number }) {
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const cache = new Map<string, { at: number; value: ReceiverLookup }>();
  const forget = ({ integrationKey }: { integrationKey: string }) => cache.delete(integrationKey);
  receiverEvents.on("receiver:fault-changed", forget);

  async function load(key: string): Promise<ReceiverLookup | null> {
    const [integration, fault] = await Promise.all([
      findEmbeddedReceiver({ db: options.db, key }),
      options.db.integrationFault.findUnique({
        where: { integrationKey_side: { integrationKey: key, side: "receiver" } },
      }),
    ]);
    return integration ? { agencyId: integration.agencyId, fault } : null;
  }

  return {
    async get(key: string): Promise<ReceiverLookup | null> {
      const hit = cache.get(key);
      // performance.now() is monotonic process time for the cache only, not workbench time.
      if (hit && performance.now() - hit.at < CACHE_MS) return hit.value;
      cache.delete(key);
      const value = await load(key);
      if (!value) return null;
      // Map keeps insertion order: the first key is the least recently loaded one.
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      cache.set(key, { at: performance.now(), value });
      return value;
    },
    /** How many receivers are remembered (tests). */
    get size() {
      return cache.size;
    },
    close: () => receiverEvents.off("receiver:fault-changed", forget),
  };
}
