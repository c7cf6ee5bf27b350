// The token endpoint's clients, remembered per process. Looking a client up was a database round
// trip per token; remembered, a process issues ~1.4× the tokens (bench/token-endpoint.bench.ts).
//
// A remembered client must never outlive a change to it: a rotated secret or a withdrawn scope
// takes effect at once, in every process. Triggers on "Client" and "ClientAgency" announce each
// change on the channel identity_clients when it commits (migration client_change_notify), and
// this process remembers clients only while it listens there. A notification forgets the client;
// a lost listener forgets everything and stops remembering until it listens again. A lookup that
// was under way when a notification arrived is not remembered (it may have read the old row).
import { listenToChannel } from "../platform/db/listen-channel.ts";
import { processSingleton } from "../platform/process-singleton.ts";
import type { Runtime } from "../runtime.ts";
import type { Worker } from "../platform/worker.ts";

const CLIENTS_CHANNEL = "identity_clients";
/** A bound on staleness should a notification ever go missing without the connection failing. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 1_000;

type CacheState = {
  listening: boolean;
  /** Bumped by every notification: a lookup that saw it change does not store its answer. */
  generation: number;
  entries: Map<string, { record: unknown; at: number }>;
};

const state = () =>
  processSingleton<CacheState>("identity-client-cache", () => ({
    listening: false,
    generation: 0,
    entries: new Map(),
  }));

/** The client by id: remembered when this process listens for client changes, else `load()` every time. */
export async function rememberedClient<T extends object>(
  clientId: string,
  load: () => Promise<T | null>,
): Promise<T | null> {
  const cache = state();
  if (!cache.listening) return load();
  const hit = cache.entries.get(clientId);
  if (hit && performance.now() - hit.at < TTL_MS) return hit.record as T; // stored by this function for this id
  const generation = cache.generation;
  const record = await load();
  if (record && cache.listening && cache.generation === generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(clientId, { record, at: performance.now() });
  }
  return record;
}

/** Forget one client (its id), or every client (none given). */
function forgetClients(clientId?: string): void {
  const cache = state();
  cache.generation++;
  if (clientId) cache.entries.delete(clientId);
  else cache.entries.clear();
}

function setListening(listening: boolean) {
  forgetClients();
  state().listening = listening;
}

/** The listener that lets this process remember clients; without it (tests, a failed start) nothing is remembered. */
export async function startClientCacheWorker(runtime: Pick<Runtime, "databaseUrl" | "logger">): Promise<Worker> {
  const log = runtime.logger.child({ worker: "client-cache" });
  const listener = await listenToChannel({
    databaseUrl: runtime.databaseUrl,
    channel: CLIENTS_CHANNEL,
    onNotification: (clientId) => forgetClients(clientId || undefined),
    onReconnect: () => setListening(true),
    onDisconnect: () => setListening(false),
    onError: (err) =>
      log.warn({ err }, "client-change listener failed; clients are read from the database until it is back"),
  });
  setListening(true);
  return {
    name: "client-cache",
    async stop() {
      setListening(false);
      await listener.stop();
    },
  };
}
