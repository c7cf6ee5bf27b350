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

export type ReceiverEventMap = {
  "receiver:capabilities-changed": [{ integrationKey: string; declaration: CapabilityDeclaration }];
  "receiver:fault-changed": [{ integrationKey: string; side: "receiver" | "dispatcher"; mode: string }];
  "receiver:recorded": [{ integrationKey: string; recordId: bigint; outcome: string; status: number; duplicate: boolean }];
  "receiver:processed": [{ integrationKey: string; incidentId: string | null; recordIds: bigint[]; anomalies: string[] }];
};

const SLOT = Symbol.for("incident-workbench.receiver-events");
const holder = globalThis as typeof globalThis & { [SLOT]?: EventEmitter<ReceiverEventMap> };

/** The process's receiver event emitter. */
export const receiverEvents: EventEmitter<ReceiverEventMap> = (holder[SLOT] ??= new EventEmitter<ReceiverEventMap>().setMaxListeners(100));
