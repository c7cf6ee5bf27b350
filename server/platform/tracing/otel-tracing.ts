// The facade (tracing.ts) with OpenTelemetry's SDK configured, without the SDK's span objects
// (decision 0054). A span here is a small object that, when it ends, writes its data straight into
// the export batch (worker-span-processor.ts, appendSpan); the export thread rebuilds the SDK's
// ReadableSpan shape and the official OTLP exporter serialises and sends it. What the SDK decides
// is still the SDK's: its configured Sampler (OTEL_TRACES_SAMPLER / _ARG) is asked for every span,
// with the parent as an OpenTelemetry Context, and the W3C propagator reads incoming headers and
// stored traceparents. Ids come from a buffer of crypto-random bytes refilled 4 KiB at a time.
//
// What this skips of the SDK's Span: its per-attribute validation and limits (our spans have a few
// known attributes; an undefined value is dropped on the export thread), events (none are made),
// and its self-metrics. Only types are imported from OpenTelemetry here: start-telemetry.ts hands the
// API module, the sampler and the propagator in, loaded with the SDK, so a process without an OTLP
// endpoint loads none of them. Context is explicit: no context manager is registered.
import { randomFillSync } from "node:crypto";
import type * as Api from "@opentelemetry/api";
import type { Sampler } from "@opentelemetry/sdk-trace-base";
import {
  formatTraceparent,
  type SpanAttributes,
  type SpanOptions,
  type TraceContext,
  type TraceSpan,
  type Tracing,
} from "./tracing.ts";

type OtelApi = typeof Api;

/** Where a finished, sampled span goes: the export batch (WorkerSpanProcessor.appendSpan). */
export type SpanSink = { appendSpan(span: FinishedSpan): void };

/** What the export batch reads of a span (worker-span-processor.ts). */
export interface FinishedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly parentSpanId: string | undefined;
  readonly parentRemote: boolean;
  /** Epoch milliseconds (fractional). */
  readonly startTime: number;
  readonly endTime: number;
  readonly attributes: SpanAttributes;
  /** 0 unset, 2 error (OpenTelemetry's SpanStatusCode). */
  readonly statusCode: number;
  readonly statusMessage: string | undefined;
  readonly links: Api.Link[] | undefined;
  readonly traceState: string | undefined;
}

/** The parent of a span: a span of this process, a remote one (a header, a stored traceparent), or none. */
type Parent = LocalSpan | RemoteParent | null;
type RemoteParent = { readonly remote: Api.SpanContext; readonly otel: Api.Context };

/** Random ids from a buffer of crypto-random bytes: one randomFillSync per 4 KiB, not per id. */
class Ids {
  private readonly bytes = Buffer.allocUnsafe(4096);
  private at = this.bytes.length;
  private take(n: number): string {
    if (this.at + n > this.bytes.length) {
      randomFillSync(this.bytes);
      this.at = 0;
    }
    const id = this.bytes.toString("hex", this.at, (this.at += n));
    // All zeros is an invalid id (W3C Trace Context); at 2^-64 it is drawn again, never sent.
    return /^0+$/.test(id) ? this.take(n) : id;
  }
  traceId = () => this.take(16);
  spanId = () => this.take(8);
}

const now = () => performance.timeOrigin + performance.now();
const NO_ATTRIBUTES: SpanAttributes = Object.freeze({});

class LocalSpan implements TraceSpan, FinishedSpan {
  readonly startTime: number;
  endTime = 0;
  statusCode = 0;
  statusMessage: string | undefined;
  private ended = false;
  private otelContext: Api.Context | undefined;
  constructor(
    private readonly tracer: FastTracer,
    public name: string,
    readonly kind: number,
    readonly traceId: string,
    readonly spanId: string,
    readonly traceFlags: number,
    readonly parentSpanId: string | undefined,
    readonly parentRemote: boolean,
    readonly attributes: SpanAttributes,
    startTime: number | undefined,
    readonly links: Api.Link[] | undefined,
    readonly traceState: string | undefined,
    readonly traceStateObject: Api.TraceState | undefined,
    /** Sampled and recorded; a span the sampler dropped only carries its ids on. */
    private readonly recording: boolean,
  ) {
    this.startTime = startTime ?? now();
  }
  get context(): TraceContext {
    return this as unknown as TraceContext;
  }
  get traceparent() {
    return formatTraceparent(this.traceId, this.spanId, this.traceFlags);
  }
  /** This span as the OpenTelemetry Context a sampler reads a child's parent from (made once, when asked). */
  asOtelContext(): Api.Context {
    return (this.otelContext ??= this.tracer.contextOf({
      traceId: this.traceId,
      spanId: this.spanId,
      traceFlags: this.traceFlags,
      isRemote: false,
      traceState: this.traceStateObject,
    }));
  }
  setAttributes(attributes: SpanAttributes) {
    if (!this.recording || this.ended) return;
    for (const key in attributes) this.attributes[key] = attributes[key];
  }
  rename(name: string) {
    if (!this.ended) this.name = name;
  }
  fail(message: string) {
    if (!this.recording || this.ended) return;
    this.statusCode = 2;
    this.statusMessage = message;
  }
  end() {
    if (this.ended) return;
    this.ended = true;
    this.endTime = now();
    if (this.recording) this.tracer.sink.appendSpan(this);
  }
}

const headerGetter: Api.TextMapGetter<(name: string) => string | undefined | null> = {
  keys: () => [],
  get: (header, key) => header(key) ?? undefined,
};
const traceparentGetter: Api.TextMapGetter<string> = {
  keys: () => ["traceparent"],
  get: (traceparent, key) => (key === "traceparent" ? traceparent : undefined),
};

class FastTracer implements Tracing {
  private readonly ids = new Ids();
  private readonly kinds: Record<SpanOptions["kind"], number>;
  constructor(
    private readonly api: OtelApi,
    private readonly sampler: Sampler,
    private readonly propagator: Api.TextMapPropagator,
    readonly sink: SpanSink,
  ) {
    this.kinds = {
      server: api.SpanKind.SERVER,
      client: api.SpanKind.CLIENT,
      internal: api.SpanKind.INTERNAL,
      consumer: api.SpanKind.CONSUMER,
    };
  }

  contextOf(spanContext: Api.SpanContext): Api.Context {
    return this.api.trace.setSpanContext(this.api.ROOT_CONTEXT, spanContext);
  }

  /** A remote parent from an extracted Context, or null (a root) when it holds no valid span context. */
  private remote(context: Api.Context): RemoteParent | null {
    const remote = this.api.trace.getSpanContext(context);
    return remote && this.api.trace.isSpanContextValid(remote) ? { remote, otel: context } : null;
  }

  extract(header: (name: string) => string | undefined | null): TraceContext {
    return this.remote(this.propagator.extract(this.api.ROOT_CONTEXT, header, headerGetter)) as unknown as TraceContext;
  }

  fromTraceparent(traceparent: string | null | undefined): TraceContext {
    if (!traceparent) return null as unknown as TraceContext;
    return this.remote(
      this.propagator.extract(this.api.ROOT_CONTEXT, traceparent, traceparentGetter),
    ) as unknown as TraceContext;
  }

  traceparentOf(context: TraceContext): string | undefined {
    const parent = context as unknown as Parent | undefined;
    if (!parent) return undefined;
    if (parent instanceof LocalSpan) return parent.traceparent;
    const { traceId, spanId, traceFlags } = parent.remote;
    return formatTraceparent(traceId, spanId, traceFlags);
  }

  annotate(context: TraceContext, attributes: SpanAttributes): void {
    const parent = context as unknown as Parent | undefined;
    if (parent instanceof LocalSpan) parent.setAttributes(attributes);
  }

  startSpan(name: string, options: SpanOptions): TraceSpan {
    const { api } = this;
    const parent = (options.parent as unknown as Parent | undefined) ?? null;
    let traceId: string;
    let parentSpanId: string | undefined;
    let parentRemote = false;
    let parentContext: Api.Context;
    let traceState: Api.TraceState | undefined;
    if (parent === null) {
      traceId = this.ids.traceId();
      parentContext = api.ROOT_CONTEXT;
    } else if (parent instanceof LocalSpan) {
      traceId = parent.traceId;
      parentSpanId = parent.spanId;
      parentContext = parent.asOtelContext();
      traceState = parent.traceStateObject;
    } else {
      traceId = parent.remote.traceId;
      parentSpanId = parent.remote.spanId;
      parentRemote = true;
      parentContext = parent.otel;
      traceState = parent.remote.traceState;
    }
    const kind = this.kinds[options.kind];
    const links = options.links?.flatMap((traceparent) => this.linkOf(traceparent));
    const attributes = options.attributes ?? {};
    const sampled = this.sampler.shouldSample(parentContext, traceId, name, kind, attributes, links ?? []);
    const recording = sampled.decision === api.SamplingDecision.RECORD_AND_SAMPLED;
    if (recording && sampled.attributes) Object.assign(attributes, sampled.attributes);
    traceState = sampled.traceState ?? traceState;
    return new LocalSpan(
      this,
      name,
      kind,
      traceId,
      this.ids.spanId(),
      recording ? api.TraceFlags.SAMPLED : api.TraceFlags.NONE,
      parentSpanId,
      parentRemote,
      recording ? attributes : NO_ATTRIBUTES,
      options.startTime,
      recording ? links : undefined,
      traceState?.serialize(),
      traceState,
      recording,
    );
  }

  private linkOf(traceparent: string): Api.Link[] {
    const context = this.api.trace.getSpanContext(
      this.propagator.extract(this.api.ROOT_CONTEXT, traceparent, traceparentGetter),
    );
    return context ? [{ context }] : [];
  }
}

export function createOtelTracing(
  api: OtelApi,
  sampler: Sampler,
  propagator: Api.TextMapPropagator,
  sink: SpanSink,
): Tracing {
  return new FastTracer(api, sampler, propagator, sink);
}
