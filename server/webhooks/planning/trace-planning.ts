// The planning of an incident change's webhook events as a span (docs/observability.md, "Traces"):
// a child of the change's span, in the request's trace. Its traceparent is kept on every outbox row
// it plans, so each delivery attempt's span is its child, however much later and in whichever
// process the attempt runs (decision 0054). Only called with tracing on.
import type { IncidentChange } from "../../incidents/change-record.ts";
import type { TraceContext, Tracing } from "../../platform/tracing/tracing.ts";

export async function tracePlanning<P extends { deliveries: unknown[] } | null>(
  tracing: Tracing,
  parent: TraceContext | undefined,
  changes: IncidentChange[],
  plan: (traceparent: string) => Promise<P>,
): Promise<P> {
  const span = tracing.startSpan("plan webhook events", {
    kind: "internal",
    parent,
    attributes: {
      "workbench.incident.id": changes[0]!.incidentId,
      "workbench.change.seq": changes[0]!.seq,
      "workbench.change.kinds": changes.map((c) => c.kind).join(","),
    },
  });
  try {
    const planned = await plan(span.traceparent);
    span.setAttributes({ "workbench.events.planned": planned?.deliveries.length ?? 0 });
    return planned;
  } catch (error) {
    span.fail((error as Error).message);
    throw error;
  } finally {
    span.end();
  }
}
