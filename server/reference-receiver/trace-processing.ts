// The embedded receivers' processing in the deliveries' traces (docs/observability.md, "Traces"), when
// tracing is on. Processing runs after the answer, in batches: one transaction applies the records of
// up to 128 (receiver, incident) pairs, whichever requests asked for them (process-deliveries.ts). So
// it is one `receiver process` span a batch, not one a delivery (decision 0054): made after the fact
// from the batch's start, the child of the first delivery request it settled, linked to every other
// one's (at most MAX_LINKS), so each delivery's trace leads to the batch that applied its record. A
// failed batch is a failed span, linked to all the requests it failed. Called only with tracing on:
// process-deliveries.ts checks activeTracing() first, so with it off nothing is allocated.
import type { Tracing } from "../platform/tracing/tracing.ts";

/** The SDK's default link limit (OTEL_SPAN_LINK_COUNT_LIMIT): a batch of more requests links the first ones. */
export const MAX_LINKS = 128;

export type ProcessedBatch = {
  /** When the batch started, epoch milliseconds. */
  startTime: number;
  /** The traceparents of the delivery requests the batch settled (or failed), in their order. */
  requests: string[];
  /** Pairs whose records it applied, and how many records. */
  pairs: number;
  records: number;
  /** The integrations of its pairs, as the span's `workbench.integration` when there is one. */
  integrations: Set<string>;
  error?: unknown;
};

/** Ends a batch's span; none when no traced request asked for the batch (nothing's trace to show it in). */
export function traceProcessingBatch(tracing: Tracing, batch: ProcessedBatch): void {
  const [first, ...others] = batch.requests;
  if (first === undefined) return;
  const [integration] = batch.integrations;
  const span = tracing.startSpan("receiver process", {
    kind: "internal",
    parent: tracing.fromTraceparent(first),
    startTime: batch.startTime,
    links: others.length > 0 ? others.slice(0, MAX_LINKS) : undefined,
    attributes: {
      "workbench.integration": batch.integrations.size === 1 ? integration : undefined,
      "workbench.receiver.requests": batch.requests.length,
      "workbench.receiver.pairs": batch.pairs,
      "workbench.receiver.records": batch.records,
    },
  });
  if (batch.error !== undefined) span.fail((batch.error as Error)?.message ?? String(batch.error));
  span.end();
}
