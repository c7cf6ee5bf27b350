import type { ServerResponse } from "node:http";

/**
 * Runs `work` once the answer is out: when the response closes, or on the next turn when it has
 * closed already, or when there is no response object (a delivery called in-process). A sender that
 * hung up while its delivery was being recorded still has it recorded, so its work must still run:
 * a `close` listener added after the event never runs, and a retry of the delivery is a duplicate,
 * which starts none.
 */
export function afterAnswer(outgoing: ServerResponse | undefined, work: () => void): void {
  if (outgoing && !outgoing.closed && !outgoing.destroyed) outgoing.once("close", work);
  else setImmediate(work);
}
