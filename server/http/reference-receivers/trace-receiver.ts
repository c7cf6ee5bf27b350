// The embedded receiver's part of a delivery's trace (docs/observability.md, "Traces"), when tracing
// is on: the request's SERVER span comes from the protocol app (trace-requests.ts, parented by the
// attempt's traceparent); inside it, recording the delivery durably; after the answer, processing it
// into the replica, a child of the request's span although it runs once the answer is out (the
// processing of a burst applies the records of several deliveries: the span is the run this
// delivery started).
// Called only with tracing on: receive-delivery.ts checks first, so with it off nothing is allocated.
import type { SpanAttributes, Tracing } from "../../platform/tracing/tracing.ts";

/** `work` inside a span named `name`, a child of the request's span. */
export async function traceReceiverStep<T>(
  tracing: Tracing,
  name: string,
  attributes: SpanAttributes,
  work: () => Promise<T>,
) {
  const span = tracing.startSpan(name, { kind: "internal", attributes });
  try {
    return await tracing.withSpan(span, work);
  } catch (error) {
    span.fail((error as Error).message);
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The processing that runs after the answer, as a child of the request's span: the parent is taken
 * now (the active request), the span started when the work starts.
 */
export function traceLater(
  tracing: Tracing,
  name: string,
  attributes: SpanAttributes,
  work: () => Promise<void>,
): () => Promise<void> {
  const parent = tracing.current();
  return async () => {
    const span = tracing.startSpan(name, { kind: "internal", parent, attributes });
    try {
      await tracing.withSpan(span, work);
    } catch (error) {
      span.fail((error as Error).message);
      throw error;
    } finally {
      span.end();
    }
  };
}
