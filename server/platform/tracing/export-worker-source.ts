// The export thread's code (worker-span-processor.ts starts it): CommonJS run by `new Worker(code,
// { eval: true })`, so it needs no file of its own beside the server's one bundle (the bundle keeps
// @opentelemetry/* external; the main thread resolves the exporter's and the resources' entry files
// and hands their paths in). It owns the OTLP exporter: the spans' plain data comes in batches, is
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
function readable(d) {
  const context = { traceId: d.traceId, spanId: d.spanId, traceFlags: d.flags, traceState: traceState(d.traceState) };
  return {
    name: d.name,
    kind: d.kind,
    spanContext: () => context,
    parentSpanContext: d.parentSpanId === undefined ? undefined : { spanId: d.parentSpanId, isRemote: d.parentRemote },
    startTime: d.startTime,
    endTime: d.endTime,
    duration: d.duration,
    ended: true,
    attributes: d.attributes,
    droppedAttributesCount: d.droppedAttributes,
    events: d.events,
    droppedEventsCount: d.droppedEvents,
    links: d.links,
    droppedLinksCount: d.droppedLinks,
    status: d.status,
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
  const spans = message.spans.map(readable);
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
