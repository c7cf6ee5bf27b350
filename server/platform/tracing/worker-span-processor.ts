// A span processor that exports from a worker thread (decision 0054): the SDK's batch processor
// serialises and sends on the main thread, which measured about half of tracing's cost there. Here a
// finished, sampled span is reduced to its plain data (its fields as they are: no copy of attributes),
// appended to a flat batch, and handed to the export thread (export-worker-source.ts) in batches of
// OTEL_BSP_MAX_EXPORT_BATCH_SIZE (512) or every OTEL_BSP_SCHEDULE_DELAY ms (5000); the thread owns
// the OTLP exporter. At most OTEL_BSP_MAX_QUEUE_SIZE (2048) spans wait or are in flight; beyond that
// a span is dropped and counted, as the SDK's batch processor does.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Context, Link } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { EXPORT_WORKER_SOURCE } from "./export-worker-source.ts";
import type { FinishedSpan } from "./otel-tracing.ts";

export type WorkerExportOptions = {
  url: string;
  protocol: "http/protobuf" | "http/json";
  resource: Record<string, unknown>;
  scope: { name: string; version?: string };
  maxBatch: number;
  delayMs: number;
  maxQueue: number;
  onError: (message: string) => void;
};

/**
 * A span's plain data appended to a batch: one flat array of primitives (and the attributes object
 * as it is) is much cheaper to clone across threads than an object per span. `FIELDS` entries a
 * span, times in epoch milliseconds; what is rare (status message, events, links, dropped counts,
 * trace state) rides in one optional object. The export thread reads them back in this order
 * (export-worker-source.ts). Spans come from the facade (appendSpan: otel-tracing.ts's own spans)
 * or, through onEnd, from an SDK tracer (tests).
 */
export const FIELDS = 12;

/** Links as the export thread takes them: their TraceState object (a class instance) is left off. */
const cloneableLinks = (links: Link[]) =>
  links.map((l) => ({ ...l, context: { ...l.context, traceState: undefined } }));

function appendFinished(batch: unknown[], span: FinishedSpan) {
  const rare =
    span.statusMessage !== undefined || span.links !== undefined || span.traceState !== undefined
      ? {
          message: span.statusMessage,
          events: [],
          links: cloneableLinks(span.links ?? []),
          dropped: [0, 0, 0],
          traceState: span.traceState,
        }
      : 0;
  batch.push(
    span.name,
    span.kind,
    span.traceId,
    span.spanId,
    span.traceFlags,
    span.parentSpanId,
    span.parentRemote,
    span.startTime,
    span.endTime,
    span.attributes,
    span.statusCode,
    rare,
  );
}

const ms = (time: [number, number]) => time[0] * 1e3 + time[1] / 1e6;

function appendReadable(batch: unknown[], span: ReadableSpan) {
  const context = span.spanContext();
  const parent = span.parentSpanContext;
  const rare =
    span.events.length > 0 ||
    span.links.length > 0 ||
    span.status.message !== undefined ||
    span.droppedAttributesCount + span.droppedEventsCount + span.droppedLinksCount > 0 ||
    context.traceState !== undefined
      ? {
          message: span.status.message,
          events: span.events,
          links: cloneableLinks(span.links),
          dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
          traceState: context.traceState?.serialize(),
        }
      : 0;
  batch.push(
    span.name,
    span.kind,
    context.traceId,
    context.spanId,
    context.traceFlags,
    parent?.spanId,
    parent?.isRemote === true,
    ms(span.startTime),
    ms(span.endTime),
    span.attributes,
    span.status.code,
    rare,
  );
}

export class WorkerSpanProcessor implements SpanProcessor {
  private readonly worker: Worker;
  private buffer: unknown[] = [];
  private buffered = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushes = new Map<number, () => void>();
  private nextFlush = 0;
  private stopped = false;
  dropped = 0;
  private reported = 0;

  constructor(private readonly options: WorkerExportOptions) {
    const require = createRequire(import.meta.url);
    const exporter =
      options.protocol === "http/json"
        ? "@opentelemetry/exporter-trace-otlp-http"
        : "@opentelemetry/exporter-trace-otlp-proto";
    this.worker = new Worker(EXPORT_WORKER_SOURCE, {
      eval: true,
      workerData: {
        exporterPath: require.resolve(exporter),
        resourcesPath: require.resolve("@opentelemetry/resources"),
        url: options.url,
        resource: options.resource,
        scope: options.scope,
        fields: FIELDS,
      },
    });
    this.worker.unref();
    this.worker.on("message", (message: { type: string; count?: number; id?: number; message?: string }) => {
      if (message.type === "done") this.inFlight -= message.count!;
      else if (message.type === "flushed") this.flushes.get(message.id!)?.();
      else if (message.type === "error") options.onError(message.message!);
    });
    this.worker.on("error", (error) => options.onError(`export thread: ${error.message}`));
    // A thread that is gone exports nothing more: spans are no longer kept, and no flush waits for it.
    this.worker.on("exit", () => {
      this.stopped = true;
      for (const settle of [...this.flushes.values()]) settle();
    });
  }

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & 1) === 0 || !this.admit()) return;
    appendReadable(this.buffer, span);
    this.appended();
  }

  /** A finished, sampled span of the facade (otel-tracing.ts) into the batch. */
  appendSpan(span: FinishedSpan): void {
    if (!this.admit()) return;
    appendFinished(this.buffer, span);
    this.appended();
  }

  private admit(): boolean {
    if (this.stopped) return false;
    if (this.buffered + this.inFlight < this.options.maxQueue) return true;
    this.dropped++;
    return false;
  }

  private appended() {
    if (++this.buffered >= this.options.maxBatch) this.handOff();
    else this.timer ??= setTimeout(() => this.handOff(), this.options.delayMs).unref();
  }

  private handOff() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.reported < this.dropped) {
      this.options.onError(`${this.dropped - this.reported} spans dropped: the export queue was full`);
      this.reported = this.dropped;
    }
    if (this.buffered === 0) return;
    const spans = this.buffer;
    this.inFlight += this.buffered;
    this.buffer = [];
    this.buffered = 0;
    this.worker.postMessage({ type: "spans", spans });
  }

  /** Hands off what is buffered and resolves once the export thread has sent everything it holds. */
  forceFlush(): Promise<void> {
    this.handOff();
    if (this.stopped) return Promise.resolve();
    const id = this.nextFlush++;
    return new Promise((resolve) => {
      this.flushes.set(id, () => {
        this.flushes.delete(id);
        resolve();
      });
      this.worker.postMessage({ type: "flush", id });
    });
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.worker.terminate();
  }
}
