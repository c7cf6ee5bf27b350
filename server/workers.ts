// Background workers of this process (delivery, discovery, receiver processing, ...).
// Each starts after the database is ready and stops before it closes.
import type { Runtime, WorkerFactory } from "./runtime.ts";
import { startCredentialPurgeWorker } from "./identity/purge-expired-credentials.ts";
import { startClientCacheWorker } from "./identity/client-cache.ts";
import { startWebhookEngine } from "./webhooks/start-webhook-engine.ts";
import { receiverProcessingWorker } from "./reference-receiver/processing-worker.ts";
import { startLiveVideoWorker } from "./incidents/live-video-worker.ts";
import { startRetentionWorker } from "./workbench/retention/retention-worker.ts";
import { startCallRecorderWorker } from "./client-calls/record-calls.ts";
import type { Worker } from "./platform/worker.ts";

export type { Worker } from "./platform/worker.ts";
export type { WorkerFactory } from "./runtime.ts";

/** The workers every process runs; a new background worker registers here. */
const WORKER_FACTORIES: WorkerFactory[] = [
  startClientCacheWorker,
  startCredentialPurgeWorker,
  startWebhookEngine,
  receiverProcessingWorker,
  startLiveVideoWorker,
  startRetentionWorker,
  startCallRecorderWorker,
];

export async function startWorkers(runtime: Runtime) {
  const started: Worker[] = [];
  for (const factory of WORKER_FACTORIES) started.push(await factory(runtime));
  return {
    workers: started,
    listening() {
      for (const w of started) w.listening?.();
    },
    closing() {
      for (const w of started) w.closing?.();
    },
    async stop() {
      await Promise.all(
        started.map((w) =>
          w.stop().catch((err: Error) => runtime.logger.warn({ err, worker: w.name }, "worker stop failed")),
        ),
      );
    },
  };
}
