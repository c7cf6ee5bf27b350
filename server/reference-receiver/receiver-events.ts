// Typed lifecycle events of the reference receivers, on one globalThis emitter
// (Next bundles app/ separately, so the tRPC side and the Hono side must share it).
//
// receiver:fault-changed — the receiver lookup forgets the cached fault of that receiver.
// receiver:recorded / receiver:processed — the dashboard's live view and tests wait on these.
// (A capability change is the engine's to hear: the receiver emits the engine's
// integration:about-changed, webhooks/webhook-events.ts.)
import { EventEmitter } from "node:events";
import { processSingleton } from "../platform/process-singleton.ts";

export type ReceiverEventMap = {
  "receiver:fault-changed": [{ integrationKey: string; mode: string }];
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
