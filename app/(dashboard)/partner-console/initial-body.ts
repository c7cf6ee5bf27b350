// The body a console form starts from: the operation's example, with a fresh requestedIncidentId so
// "Send" twice creates two incidents unless the user keeps the id (a repeat with it answers 200).
import type { ConsoleOperation } from "./openapi-operations";

export function initialBody(op: Pick<ConsoleOperation, "body" | "example">): unknown {
  if (!op.body) return undefined;
  const example = structuredClone(op.example ?? {}) as Record<string, unknown>;
  if (op.body.properties?.requestedIncidentId) example.requestedIncidentId = crypto.randomUUID();
  return example;
}
