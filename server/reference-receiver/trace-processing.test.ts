// A processing batch in the deliveries' traces (trace-processing.ts): one span a batch, the child of
// its first request's span, linked to the others'; failed when the batch failed; none when no traced
// request asked for it.
import { describe, expect, it } from "vitest";
import type { SpanOptions, TraceContext, TraceSpan, Tracing } from "../platform/tracing/tracing.ts";
import { MAX_LINKS, traceProcessingBatch, type ProcessedBatch } from "./trace-processing.ts";

function recordingTracing() {
  const started: Array<{ name: string; options: SpanOptions; failed?: string; ended: boolean }> = [];
  const tracing: Tracing = {
    extract: () => ({}) as TraceContext,
    fromTraceparent: (traceparent) => ({ parentOf: traceparent }) as unknown as TraceContext,
    traceparentOf: () => undefined,
    annotate: () => {},
    startSpan(name, options) {
      const record: (typeof started)[number] = { name, options, ended: false };
      started.push(record);
      return {
        fail: (message: string) => (record.failed = message),
        end: () => (record.ended = true),
      } as unknown as TraceSpan;
    },
  };
  return { tracing, started };
}

const tp = (n: number) => `00-${"a".repeat(32)}-${n.toString(16).padStart(16, "0")}-01`;
const batch = (over: Partial<ProcessedBatch>): ProcessedBatch => ({
  startTime: 1_000,
  requests: [tp(1)],
  pairs: 1,
  records: 1,
  integrations: new Set(["north-psap"]),
  ...over,
});

describe("traceProcessingBatch", () => {
  it("one request: the span is its child, from the batch's start, with what the batch did", () => {
    const { tracing, started } = recordingTracing();
    traceProcessingBatch(tracing, batch({ records: 3 }));
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ name: "receiver process", ended: true });
    expect(started[0]!.failed).toBeUndefined();
    expect(started[0]!.options).toMatchObject({
      kind: "internal",
      parent: { parentOf: tp(1) },
      startTime: 1_000,
      links: undefined,
      attributes: {
        "workbench.integration": "north-psap",
        "workbench.receiver.requests": 1,
        "workbench.receiver.pairs": 1,
        "workbench.receiver.records": 3,
      },
    });
  });

  it("several requests: the child of the first, linked to the others (at most MAX_LINKS); several integrations name none", () => {
    const { tracing, started } = recordingTracing();
    const requests = Array.from({ length: MAX_LINKS + 5 }, (_, i) => tp(i + 1));
    traceProcessingBatch(tracing, batch({ requests, integrations: new Set(["a", "b"]) }));
    const options = started[0]!.options;
    expect(options.parent).toEqual({ parentOf: tp(1) });
    expect(options.links).toEqual(requests.slice(1, MAX_LINKS + 1));
    expect(options.attributes?.["workbench.integration"]).toBeUndefined();
    expect(options.attributes?.["workbench.receiver.requests"]).toBe(MAX_LINKS + 5);
  });

  it("a failed batch is a failed span", () => {
    const { tracing, started } = recordingTracing();
    traceProcessingBatch(tracing, batch({ requests: [tp(1), tp(2)], error: new Error("replica gone") }));
    expect(started[0]).toMatchObject({ failed: "replica gone", ended: true });
    expect(started[0]!.options.links).toEqual([tp(2)]);
  });

  it("a batch no traced request asked for is no span", () => {
    const { tracing, started } = recordingTracing();
    traceProcessingBatch(tracing, batch({ requests: [] }));
    expect(started).toEqual([]);
  });
});
