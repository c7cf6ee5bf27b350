// Typed lifecycle events of the reference receivers, on one globalThis emitter
// (Next bundles app/ separately, so the tRPC side and the Hono side must share it).
//
// receiver:capabilities-changed — the webhook engine subscribes and re-runs its
//   /about discovery for that integration (spec: "Version selection": the service
//   reads version and supports from GET /about). In-process only: an engine in
//   another process must also rediscover periodically.
// receiver:recorded / receiver:processed — the dashboard's live view and tests wait on these.
import { EventEmitter } from "node:events";
import type { CapabilityDeclaration } from "./capabilities.ts";
import { processSingleton } from "../platform/process-singleton.ts";

export type ReceiverEventMap = {
  /**
   * `waitFor`: a listener hands in the work it started (the engine's rediscovery), and the
   * capability control awaits it before answering, so the next event is already planned
   * under the new declaration.
   */
  "receiver:capabilities-changed": [
    { integrationKey: string; declaration: CapabilityDeclaration; waitFor?: (work: Promise<unknown>) => void },
  ];
  "receiver:fault-changed": [{ integrationKey: string; side: "receiver" | "dispatcher"; mode: string }];
  "receiver:recorded": [
    { integrationKey: string; recordId: bigint; outcome: string; status: number; duplicate: boolean },
  ];
  "receiver:processed": [
    { integrationKey: string; incidentId: string | null; recordIds: bigint[]; anomalies: string[] },
  ];
};

/** The process's receiver event emitter. */
export const receiverEvents = processSingleton("receiver-events", () =>
  new EventEmitter<ReceiverEventMap>().setMaxListeners(100),
);
