// An incident change as a span (docs/observability.md, "Traces"): from its submission to the
// batcher (a child of the request's span, `options.trace`, so in its trace) to its answer, queueing
// and retries included. The change goes on with its own span as `trace`: its planning is told in it,
// and every delivery attempt it causes is its child (trace-planning.ts). Off the hot path when
// tracing is off: the batcher calls this only when activeTracing() is not null.
import type { TraceContext, TraceSpan, Tracing } from "../platform/tracing/tracing.ts";
import type { AppliedChange, ApplyChangeOptions } from "./change-types.ts";

type Settle = {
  options: ApplyChangeOptions<unknown>;
  span?: TraceSpan;
  resolve: (applied: AppliedChange<unknown>) => void;
  reject: (error: unknown) => void;
};

/** Starts the change's span and ends it with the change's answer (resolve and reject wrapped). */
export function traceChange(tracing: Tracing, pending: Settle): void {
  const span = tracing.startSpan("incident change", {
    kind: "internal",
    parent: pending.options.trace,
    attributes: { "workbench.incident.id": pending.options.incidentId, "workbench.actor": pending.options.actor },
  });
  const { resolve, reject } = pending;
  pending.span = span;
  pending.options = { ...pending.options, trace: span.context };
  pending.resolve = (applied) => {
    span.setAttributes({
      "workbench.incident.version": applied.version,
      "workbench.change.kinds": applied.changes.map((c) => c.kind).join(","),
    });
    span.end();
    resolve(applied);
  };
  pending.reject = (error) => {
    span.fail((error as { code?: string }).code ?? (error as Error).message);
    span.end();
    reject(error);
  };
}

/** An incident's creation as a span ("incident change", like any other change), its planning told in it. */
export async function traceCreation<T>(
  tracing: Tracing,
  parent: TraceContext | undefined,
  incidentId: string,
  actor: string,
  create: (trace: TraceContext) => Promise<T>,
) {
  const span = tracing.startSpan("incident change", {
    kind: "internal",
    parent,
    attributes: {
      "workbench.incident.id": incidentId,
      "workbench.actor": actor,
      "workbench.change.kinds": "incident.created",
    },
  });
  try {
    return await create(span.context);
  } catch (error) {
    span.fail((error as { code?: string }).code ?? (error as Error).message);
    throw error;
  } finally {
    span.end();
  }
}
