// The embedded receiver's part of a delivery's trace (docs/observability.md, "Traces"), when tracing
// is on: the request's SERVER span comes from the protocol app (trace-requests.ts, parented by the
// attempt's traceparent) and covers recording the delivery durably, the request's work; after the
// answer, processing it into the replica is a child of the request's span although it runs once the
// answer is out (the processing of a burst applies the records of several deliveries: the span is the
// run this delivery started).
// Called only with tracing on: receive-delivery.ts checks first, so with it off nothing is allocated.
import type { SpanAttributes, TraceContext, Tracing } from "../../platform/tracing/tracing.ts";

/** The processing that runs after the answer, as a child of the request's span, started when the work starts. */
export function traceLater(
  tracing: Tracing,
  parent: TraceContext | undefined,
  name: string,
  attributes: SpanAttributes,
  work: () => Promise<void>,
): () => Promise<void> {
  return async () => {
    const span = tracing.startSpan(name, { kind: "internal", parent, attributes });
    try {
      await work();
    } catch (error) {
      span.fail((error as Error).message);
      throw error;
    } finally {
      span.end();
    }
  };
}
