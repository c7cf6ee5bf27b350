// Not a poller: it exists so graceful shutdown waits for replica processing that
// started after a delivery was answered, before the database is stopped.
import type { WorkerFactory } from "../runtime.ts";
import { whenReceiverProcessingIdle } from "./process-deliveries.ts";

export const receiverProcessingWorker: WorkerFactory = async () => ({
  name: "receiver-processing",
  stop: () => whenReceiverProcessingIdle(),
});
