// The facade (tracing.ts) on OpenTelemetry's API. Only types are imported here: the API module and
// the W3C propagator are handed in by start-telemetry.ts, which loads them with the SDK, so a process
// without an OTLP endpoint never loads either (the bundle keeps @opentelemetry/* external:
// scripts/build-server.mjs). Context is explicit: no context manager is registered (decision 0054).
import type * as Api from "@opentelemetry/api";
import type { SpanAttributes, SpanOptions, TraceContext, TraceSpan, Tracing } from "./tracing.ts";

type OtelApi = typeof Api;

/** A header getter as the W3C propagator reads a carrier. */
const headerGetter: Api.TextMapGetter<(name: string) => string | undefined | null> = {
  keys: () => [],
  get: (header, key) => header(key) ?? undefined,
};
const traceparentGetter: Api.TextMapGetter<string> = {
  keys: () => ["traceparent"],
  get: (traceparent, key) => (key === "traceparent" ? traceparent : undefined),
};

/** The SDK skips attributes whose value is undefined (Span.setAttribute): no copy without them is needed. */
const asAttributes = (attributes: SpanAttributes | undefined) => attributes as Api.Attributes | undefined;

/** Ids read once; the traceparent and the parent context made only when asked (a leaf span needs neither). */
const traceparentOf = (traceId: string, spanId: string, flags: number) =>
  `00-${traceId}-${spanId}-${(flags & 1) === 1 ? "01" : "00"}`;

class OtelSpan implements TraceSpan {
  readonly traceId: string;
  readonly spanId: string;
  private readonly flags: number;
  private parentContext: TraceContext | undefined;
  constructor(
    readonly span: Api.Span,
    private readonly api: OtelApi,
  ) {
    const context = span.spanContext();
    this.traceId = context.traceId;
    this.spanId = context.spanId;
    this.flags = context.traceFlags;
  }
  get traceparent() {
    return traceparentOf(this.traceId, this.spanId, this.flags);
  }
  get context() {
    return (this.parentContext ??= this.api.trace.setSpan(this.api.ROOT_CONTEXT, this.span) as unknown as TraceContext);
  }
  setAttributes(attributes: SpanAttributes) {
    this.span.setAttributes(asAttributes(attributes)!);
  }
  rename(name: string) {
    this.span.updateName(name);
  }
  fail(message: string) {
    this.span.setStatus({ code: this.api.SpanStatusCode.ERROR, message });
  }
  end() {
    this.span.end();
  }
}

export function createOtelTracing(api: OtelApi, tracer: Api.Tracer, propagator: Api.TextMapPropagator): Tracing {
  const kinds = {
    server: api.SpanKind.SERVER,
    client: api.SpanKind.CLIENT,
    internal: api.SpanKind.INTERNAL,
    consumer: api.SpanKind.CONSUMER,
  };
  const asContext = (c: Api.Context) => c as unknown as TraceContext;
  const fromContext = (c: TraceContext | undefined) => (c as unknown as Api.Context | undefined) ?? api.ROOT_CONTEXT;
  const fromTraceparent = (traceparent: string) => propagator.extract(api.ROOT_CONTEXT, traceparent, traceparentGetter);
  const linkOf = (traceparent: string): Api.Link[] => {
    const span = api.trace.getSpanContext(fromTraceparent(traceparent));
    return span ? [{ context: span }] : [];
  };
  return {
    extract: (header) => asContext(propagator.extract(api.ROOT_CONTEXT, header, headerGetter)),
    fromTraceparent: (traceparent) => asContext(traceparent ? fromTraceparent(traceparent) : api.ROOT_CONTEXT),
    startSpan(name: string, options: SpanOptions) {
      const span = tracer.startSpan(
        name,
        {
          kind: kinds[options.kind],
          attributes: asAttributes(options.attributes),
          links: options.links?.flatMap(linkOf),
          startTime: options.startTime,
        },
        fromContext(options.parent),
      );
      return new OtelSpan(span, api);
    },
    traceparentOf(context) {
      const span = api.trace.getSpanContext(fromContext(context));
      return span && traceparentOf(span.traceId, span.spanId, span.traceFlags);
    },
    annotate(context, attributes) {
      api.trace.getSpan(fromContext(context))?.setAttributes(asAttributes(attributes)!);
    },
  };
}
