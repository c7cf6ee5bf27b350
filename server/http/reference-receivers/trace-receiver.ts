// The embedded receiver's part of a delivery's trace (docs/observability.md, "Traces"), when tracing
// is on: the request's SERVER span comes from the protocol app (trace-requests.ts, parented by the
// attempt's traceparent) and covers recording the delivery durably, the request's work. Processing it
// into the replica runs after the answer; it is not a span of its own unless it fails (decision 0054:
// fewer spans per change): then a failed `receiver process` span, a child of the request's span, from
// when the processing started to its failure, says what went wrong in the delivery's trace.
// Called only with tracing on: receive-delivery.ts checks first, so with it off nothing is allocated.
import type { SpanAttributes, TraceContext, Tracing } from "../../platform/tracing/tracing.ts";

/** The processing that runs after the answer: a span, a child of the request's, only if it fails. */
export function traceLater(
  tracing: Tracing,
  parent: TraceContext | undefined,
  name: string,
  attributes: SpanAttributes,
  work: () => Promise<void>,
): () => Promise<void> {
  return async () => {
    const startTime = performance.timeOrigin + performance.now();
    try {
      await work();
    } catch (error) {
      const span = tracing.startSpan(name, { kind: "internal", parent, attributes, startTime });
      span.fail((error as Error).message);
      span.end();
      throw error;
    }
  };
}
