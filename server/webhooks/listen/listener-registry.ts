// The listeners whose connection this process holds, by integration (one per integration: a new
// attach takes over). On a globalThis slot like the engine's emitter: every copy of the module in
// the process sees the same connections. `processId` names this process in the attachment row, so
// a process that claims a delivery for a listener held elsewhere can say so.
import { randomUUID } from "node:crypto";
import { processSingleton } from "../../platform/process-singleton.ts";
import type { DbClient } from "../../platform/db/client.ts";
import type { Clock } from "../../platform/clock/clock.ts";
import type { ListenerConnection } from "./listener-connection.ts";

export type ListenerRegistry = {
  readonly processId: string;
  /** What a miss is explained from (set when the engine starts); none: a plain "not connected". */
  deps: { db: DbClient; clock: Clock } | null;
  connections: Map<string, ListenerConnection>;
};

export function listenerRegistry(): ListenerRegistry {
  return processSingleton("listener-registry", () => ({
    processId: randomUUID(),
    deps: null,
    connections: new Map<string, ListenerConnection>(),
  }));
}

/** Registers `connection` for its integration; returns the one it replaces (to be closed), if any. */
export function holdConnection(connection: ListenerConnection): ListenerConnection | undefined {
  const { connections } = listenerRegistry();
  const before = connections.get(connection.integrationKey);
  connections.set(connection.integrationKey, connection);
  return before === connection ? undefined : before;
}

/** Forgets `connection` if it is still the one held for its integration. */
export function releaseConnection(connection: ListenerConnection): void {
  const { connections } = listenerRegistry();
  if (connections.get(connection.integrationKey) === connection) connections.delete(connection.integrationKey);
}
