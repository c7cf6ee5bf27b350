// The tracing facade: what engine, domain and HTTP code call (docs/observability.md, "Traces").
// It knows nothing of OpenTelemetry's packages: the SDK is loaded only when an OTLP endpoint is
// configured (start-telemetry.ts), and installs itself here. Until then, and always when none is
// configured, `activeTracing()` is null: a caller checks that and does nothing else, so a hot path
// with tracing off pays one property read, no span object and no allocation (decision 0054).
import { processSingleton } from "../process-singleton.ts";

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** Where a span's parent comes from; opaque outside the SDK's side (an OpenTelemetry Context). */
export type TraceContext = { readonly __traceContext: true };

export type SpanOptions = {
  kind: "server" | "client" | "internal" | "consumer";
  /** The parent; the context active now when absent. */
  parent?: TraceContext;
  attributes?: SpanAttributes;
  /** W3C traceparents of spans this one follows from without being their child. */
  links?: string[];
};

export interface TraceSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** This span as a W3C traceparent header ("00-<trace>-<span>-<flags>"). */
  readonly traceparent: string;
  setAttributes(attributes: SpanAttributes): void;
  /** Names the span by what became known on the way (a server span by its matched route). */
  rename(name: string): void;
  /** Marks the span failed (status ERROR) with what happened. */
  fail(message: string): void;
  end(): void;
}

export interface Tracing {
  /** The context active now: to parent work that continues later, off this call's async chain. */
  current(): TraceContext;
  /** The context of an incoming request's W3C trace headers (traceparent, tracestate). */
  extract(header: (name: string) => string | undefined | null): TraceContext;
  /** The context of a stored traceparent (a delivery row's); the root context when absent or malformed. */
  fromTraceparent(traceparent: string | null | undefined): TraceContext;
  startSpan(name: string, options: SpanOptions): TraceSpan;
  /** Runs `fn` with `span` active: the spans it starts and the lines it logs belong to it. */
  withSpan<T>(span: TraceSpan, fn: () => T): T;
  /** The active span as a traceparent, or undefined when there is none. */
  currentTraceparent(): string | undefined;
  /** The active span's ids for a log line (OpenTelemetry's JSON log field names), or undefined. */
  logFields(): { trace_id: string; span_id: string; trace_flags: string } | undefined;
}

// On a globalThis slot (process-singleton.ts): in development Next's bundle loads its own copy of this module.
const slot = processSingleton("tracing", () => ({ tracing: null as Tracing | null }));

/** The process's tracing, or null when it is off (the default): check this before anything else. */
export function activeTracing(): Tracing | null {
  return slot.tracing;
}

/** Called by start-telemetry.ts once the SDK is up, and with null when it stops. */
export function installTracing(tracing: Tracing | null): void {
  slot.tracing = tracing;
}

/**
 * pino's mixin when tracing is configured: the active span's ids on every line logged inside it.
 * A new object each time: pino merges the line's own fields into the one a mixin returns.
 */
export function traceLogFields(): object {
  return slot.tracing?.logFields() ?? {};
}

/** The trace id of a W3C traceparent header ("00-<32 hex>-<16 hex>-<2 hex>"), or null. */
export function traceIdOf(traceparent: string | null | undefined): string | null {
  const match = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(traceparent ?? "");
  return match && !/^0+$/.test(match[1]!) ? match[1]! : null;
}
