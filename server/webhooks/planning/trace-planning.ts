// The planning of an incident change's webhook events in its trace (docs/observability.md, "Traces"):
// told in the change's span, not a span of its own (decision 0054: fewer spans per change). The change
// span's traceparent is kept on every outbox row it plans, so each delivery attempt's span is the
// change's child, however much later and in whichever process the attempt runs; what was planned goes
// on the change span as attributes. A failed planning fails the change, whose span says so. Only
// called with tracing on.
import type { IncidentChange } from "../../incidents/change-record.ts";
import type { TraceContext, Tracing } from "../../platform/tracing/tracing.ts";

export async function tracePlanning<P extends { deliveries: unknown[] } | null>(
  tracing: Tracing,
  change: TraceContext | undefined,
  changes: IncidentChange[],
  plan: (traceparent: string | undefined) => Promise<P>,
): Promise<P> {
  if (change === undefined) return plan(undefined);
  const planned = await plan(tracing.traceparentOf(change));
  tracing.annotate(change, {
    "workbench.change.seq": changes[0]!.seq,
    "workbench.events.planned": planned?.deliveries.length ?? 0,
  });
  return planned;
}
