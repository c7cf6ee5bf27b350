// Background workers of this process (delivery, discovery, ... as the issues
// add them). Each starts after the database is ready and stops before it closes.
import type { Runtime } from "./platform/runtime.ts";
import { startCredentialPurgeWorker } from "./identity/purge-expired-credentials.ts";
import { startLiveVideoWorker } from "./incidents/live-video-worker.ts";
import { startWebhookEngine } from "./webhooks/start-webhook-engine.ts";
import { receiverProcessingWorker } from "./receiver/processing-worker.ts";

export type Worker = { name: string; stop: () => Promise<void> };
export type WorkerFactory = (runtime: Runtime) => Promise<Worker>;

/** The workers every process runs; later issues register theirs here. */
const WORKER_FACTORIES: WorkerFactory[] = [
  startCredentialPurgeWorker,
  startLiveVideoWorker,
  startWebhookEngine,
  receiverProcessingWorker,
];

export async function startWorkers(runtime: Runtime) {
  const started: Worker[] = [];
  for (const factory of WORKER_FACTORIES) started.push(await factory(runtime));
  return {
    workers: started,
    async stop() {
      await Promise.all(started.map((w) => w.stop().catch((err: Error) => runtime.logger.warn({ err, worker: w.name }, "worker stop failed"))));
    },
  };
}
