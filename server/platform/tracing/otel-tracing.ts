// The facade (tracing.ts) on OpenTelemetry's API. Only types are imported here: the API module is
// handed in by start-telemetry.ts, which loads it with the SDK, so a process without an OTLP endpoint
// never loads either (the bundle keeps @opentelemetry/* external: scripts/build-server.mjs).
import type * as Api from "@opentelemetry/api";
import type { SpanAttributes, SpanOptions, TraceContext, TraceSpan, Tracing } from "./tracing.ts";

type OtelApi = typeof Api;

/** A header getter as the W3C propagator reads a carrier. */
const headerGetter: Api.TextMapGetter<(name: string) => string | undefined | null> = {
  keys: () => [],
  get: (header, key) => header(key) ?? undefined,
};

const toTraceparent = (c: Api.SpanContext) => `00-${c.traceId}-${c.spanId}-${(c.traceFlags & 1) === 1 ? "01" : "00"}`;

function cleanAttributes(attributes: SpanAttributes | undefined): Api.Attributes | undefined {
  if (!attributes) return undefined;
  const clean: Api.Attributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) clean[key] = attributes[key];
  return clean;
}

class OtelSpan implements TraceSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceparent: string;
  constructor(
    readonly span: Api.Span,
    private readonly api: OtelApi,
  ) {
    const context = span.spanContext();
    this.traceId = context.traceId;
    this.spanId = context.spanId;
    this.traceparent = toTraceparent(context);
  }
  setAttributes(attributes: SpanAttributes) {
    this.span.setAttributes(cleanAttributes(attributes)!);
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

export function createOtelTracing(api: OtelApi, tracer: Api.Tracer): Tracing {
  const kinds = {
    server: api.SpanKind.SERVER,
    client: api.SpanKind.CLIENT,
    internal: api.SpanKind.INTERNAL,
    consumer: api.SpanKind.CONSUMER,
  };
  const asContext = (c: Api.Context) => c as unknown as TraceContext;
  const fromContext = (c: TraceContext) => c as unknown as Api.Context;
  const linkOf = (traceparent: string): Api.Link[] => {
    const span = api.trace.getSpanContext(
      api.propagation.extract(api.ROOT_CONTEXT, { traceparent }, api.defaultTextMapGetter),
    );
    return span ? [{ context: span }] : [];
  };
  return {
    current: () => asContext(api.context.active()),
    extract: (header) => asContext(api.propagation.extract(api.ROOT_CONTEXT, header, headerGetter)),
    fromTraceparent: (traceparent) =>
      asContext(
        traceparent
          ? api.propagation.extract(api.ROOT_CONTEXT, { traceparent }, api.defaultTextMapGetter)
          : api.ROOT_CONTEXT,
      ),
    startSpan(name: string, options: SpanOptions) {
      const parent = options.parent ? fromContext(options.parent) : api.context.active();
      const span = tracer.startSpan(
        name,
        {
          kind: kinds[options.kind],
          attributes: cleanAttributes(options.attributes),
          links: options.links?.flatMap(linkOf),
        },
        parent,
      );
      return new OtelSpan(span, api);
    },
    withSpan: (span, fn) => api.context.with(api.trace.setSpan(api.context.active(), (span as OtelSpan).span), fn),
    currentTraceparent() {
      const span = api.trace.getActiveSpan();
      return span ? toTraceparent(span.spanContext()) : undefined;
    },
    logFields() {
      const span = api.trace.getActiveSpan();
      if (!span) return undefined;
      const c = span.spanContext();
      return { trace_id: c.traceId, span_id: c.spanId, trace_flags: (c.traceFlags & 1) === 1 ? "01" : "00" };
    },
  };
}
