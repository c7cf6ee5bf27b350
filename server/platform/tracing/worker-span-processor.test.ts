// The export thread (worker-span-processor.ts): batches handed off at their size without waiting for
// the delay, spans past the queue's bound dropped and counted, and what is exported is the spans' data.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkerSpanProcessor } from "./worker-span-processor.ts";

type Exported = {
  name: string;
  spanId: string;
  parentSpanId?: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Array<{ key: string }>;
  status: { code?: number; message?: string };
  events: Array<{ name: string }>;
};
const exported: Exported[][] = [];
let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Exported[] }> }> };
      exported.push(parsed.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function setUp(batch: { maxBatch: number; delayMs: number; maxQueue: number }) {
  const errors: string[] = [];
  const processor = new WorkerSpanProcessor({
    url,
    protocol: "http/json",
    resource: { "service.name": "worker-test" },
    scope: { name: "worker-test" },
    ...batch,
    onError: (message) => errors.push(message),
  });
  const provider = new BasicTracerProvider({ spanProcessors: [processor] });
  return { processor, provider, tracer: provider.getTracer("worker-test"), errors };
}

describe("WorkerSpanProcessor", () => {
  it("hands a full batch to the export thread at once: names, parents, times, attributes, status, events", async () => {
    exported.length = 0;
    const { provider, tracer, errors } = setUp({ maxBatch: 2, delayMs: 600_000, maxQueue: 100 });
    const parent = tracer.startSpan("first", { attributes: { "workbench.probe": "yes" } });
    const second = tracer.startSpan("second", {}, trace.setSpan(ROOT_CONTEXT, parent));
    second.addEvent("probed");
    second.setStatus({ code: SpanStatusCode.ERROR, message: "broken" });
    parent.end();
    second.end();
    const until = Date.now() + 5_000;
    while (exported.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(exported.map((batch) => batch.map((s) => s.name))).toEqual([["first", "second"]]);
    const [first, child] = exported[0]!;
    expect(first!.attributes.map((a) => a.key)).toEqual(["workbench.probe"]);
    expect(first!.parentSpanId ?? "").toBe("");
    expect(child!.parentSpanId).toBe(first!.spanId);
    expect(child!.status).toMatchObject({ code: 2, message: "broken" });
    expect(child!.events.map((e) => e.name)).toEqual(["probed"]);
    expect(BigInt(first!.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(first!.startTimeUnixNano));
    expect(Number(BigInt(first!.startTimeUnixNano) / 1_000_000n)).toBeGreaterThan(Date.now() - 10_000);
    expect(errors).toEqual([]);
    await provider.shutdown();
  });

  it("drops what is past the queue's bound, counts it and says so; a flush exports the rest", async () => {
    exported.length = 0;
    const { processor, provider, tracer, errors } = setUp({ maxBatch: 10, delayMs: 600_000, maxQueue: 3 });
    for (let i = 0; i < 5; i++) tracer.startSpan(`span ${i}`).end();
    expect(processor.dropped).toBe(2);
    await provider.forceFlush();
    expect(exported.flat().map((s) => s.name)).toEqual(["span 0", "span 1", "span 2"]);
    expect(errors).toEqual(["2 spans dropped: the export queue was full"]);
    await provider.shutdown();
  });
});
