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
  /** The parent; a new trace when absent. */
  parent?: TraceContext;
  /** The span keeps this object as its attributes (no copy): pass one of its own, not a shared one. */
  attributes?: SpanAttributes;
  /** When it started (epoch milliseconds), for a span made after the fact; now when absent. */
  startTime?: number;
  /** W3C traceparents of spans this one follows from without being their child. */
  links?: string[];
};

export interface TraceSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** This span as a parent: what the work it causes passes on (tracing has no implicit context). */
  readonly context: TraceContext;
  /** This span as a W3C traceparent header ("00-<trace>-<span>-<flags>"). */
  readonly traceparent: string;
  setAttributes(attributes: SpanAttributes): void;
  /** Names the span by what became known on the way (a server span by its matched route). */
  rename(name: string): void;
  /** Marks the span failed (status ERROR) with what happened. */
  fail(message: string): void;
  end(): void;
}

/**
 * Context is passed explicitly, never kept implicitly: OpenTelemetry's AsyncLocalStorage context
 * manager enables async hooks on every promise of the process, which cost more than the spans
 * themselves here on Node 20 (decision 0054). A span's parent is always given (or none: a root).
 */
export interface Tracing {
  /** The context of an incoming request's W3C trace headers (traceparent, tracestate). */
  extract(header: (name: string) => string | undefined | null): TraceContext;
  /** The context of a stored traceparent (a delivery row's); the root context when absent or malformed. */
  fromTraceparent(traceparent: string | null | undefined): TraceContext;
  startSpan(name: string, options: SpanOptions): TraceSpan;
  /** The traceparent of the span a context holds (work it causes later is its child), or undefined: none. */
  traceparentOf(context: TraceContext): string | undefined;
  /** Adds attributes to the open span a context holds: a step told in its caller's span, not a span of its own. */
  annotate(context: TraceContext, attributes: SpanAttributes): void;
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

/** A span's ids for a log line, under OpenTelemetry's field names for JSON logs. */
export function traceLogFields(span: TraceSpan): { trace_id: string; span_id: string } {
  return { trace_id: span.traceId, span_id: span.spanId };
}

/**
 * A log line's `trace_id` and `span_id` (spread into its fields) when tracing is on: of the span at
 * hand, else of the stored traceparent the work continues (an outbox row's: its change's span);
 * undefined when tracing is off or neither is there, so the line is as before. Off, it costs the
 * property read of activeTracing().
 */
export function traceLogFieldsOr(
  span: TraceSpan | null | undefined,
  traceparent?: string | null,
): { trace_id: string; span_id: string } | undefined {
  if (slot.tracing === null) return undefined;
  if (span) return traceLogFields(span);
  const ids = idsOf(traceparent);
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : undefined;
}

/** The ids of a W3C traceparent header ("00-<32 hex>-<16 hex>-<2 hex>"), or null (malformed, or an all-zero trace id). */
function idsOf(traceparent: string | null | undefined): { traceId: string; spanId: string } | null {
  const match = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent ?? "");
  return match && !/^0+$/.test(match[1]!) ? { traceId: match[1]!, spanId: match[2]! } : null;
}

/** The trace id of a W3C traceparent header, or null. */
export function traceIdOf(traceparent: string | null | undefined): string | null {
  return idsOf(traceparent)?.traceId ?? null;
}

/** A span's ids as a W3C traceparent header (version 00; flags: sampled or not). */
export function formatTraceparent(traceId: string, spanId: string, traceFlags: number): string {
  return `00-${traceId}-${spanId}-${(traceFlags & 1) === 1 ? "01" : "00"}`;
}
