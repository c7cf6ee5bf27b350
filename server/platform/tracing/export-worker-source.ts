// The export thread's code (worker-span-processor.ts starts it): CommonJS run by `new Worker(code,
// { eval: true })`, so it needs no file of its own beside the server's one bundle (the bundle keeps
// @opentelemetry/* external; the main thread resolves the exporter's and the resources' entry files
// and hands their paths in). It owns the OTLP exporter: the spans' plain data comes in flat batches
// (worker-span-processor.ts, FIELDS entries a span, times in epoch milliseconds), is
// rebuilt as the ReadableSpan shape the OTLP transformer reads, serialised and sent here, off the
// main thread (decision 0054). Each batch is answered with how many spans it held ("done"), so the
// main thread can bound what is in flight; an export's failure is posted back for the log.
export const EXPORT_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { OTLPTraceExporter } = require(workerData.exporterPath);
const { resourceFromAttributes } = require(workerData.resourcesPath);
const exporter = new OTLPTraceExporter({ url: workerData.url });
const resource = resourceFromAttributes(workerData.resource);
const scope = workerData.scope;
const states = new Map();
const traceState = (text) => {
  if (text === undefined) return undefined;
  let state = states.get(text);
  if (state === undefined) states.set(text, (state = { serialize: () => text }));
  return state;
};
const NO_EVENTS = [];
const hr = (ms) => {
  const s = Math.floor(ms / 1e3);
  return [s, Math.round((ms - s * 1e3) * 1e6)];
};
// An attribute whose value is undefined is dropped here, off the main thread (the SDK's Span skips it).
const defined = (attributes) => {
  for (const key in attributes) if (attributes[key] === undefined) delete attributes[key];
  return attributes;
};
function readable(b, i) {
  const rare = b[i + 11] || undefined;
  const context = { traceId: b[i + 2], spanId: b[i + 3], traceFlags: b[i + 4], traceState: traceState(rare && rare.traceState) };
  const parentSpanId = b[i + 5];
  const startTime = hr(b[i + 7]);
  const endTime = hr(Math.max(b[i + 7], b[i + 8]));
  const ns = (endTime[0] - startTime[0]) * 1e9 + (endTime[1] - startTime[1]);
  const dropped = rare ? rare.dropped : [0, 0, 0];
  return {
    name: b[i],
    kind: b[i + 1],
    spanContext: () => context,
    parentSpanContext: parentSpanId === undefined ? undefined : { spanId: parentSpanId, isRemote: b[i + 6] },
    startTime,
    endTime,
    duration: [Math.floor(ns / 1e9), ns % 1e9],
    ended: true,
    attributes: defined(b[i + 9]),
    droppedAttributesCount: dropped[0],
    events: rare ? rare.events : NO_EVENTS,
    droppedEventsCount: dropped[1],
    links: rare ? rare.links : NO_EVENTS,
    droppedLinksCount: dropped[2],
    status: { code: b[i + 10], message: rare ? rare.message : undefined },
    resource,
    instrumentationScope: scope,
  };
}
let pending = 0;
let idle = [];
const settle = () => {
  if (pending !== 0) return;
  for (const id of idle) parentPort.postMessage({ type: "flushed", id });
  idle = [];
};
parentPort.on("message", (message) => {
  if (message.type === "flush") {
    idle.push(message.id);
    settle();
    return;
  }
  const spans = [];
  for (let i = 0; i < message.spans.length; i += workerData.fields) spans.push(readable(message.spans, i));
  pending++;
  exporter.export(spans, (result) => {
    pending--;
    if (result.code !== 0) {
      parentPort.postMessage({ type: "error", message: String((result.error && result.error.message) || "export failed") });
    }
    parentPort.postMessage({ type: "done", count: spans.length });
    settle();
  });
});
`;
