// The receiver's processing in a delivery's trace (trace-receiver.ts): no span when it succeeds, a
// failed span from its start when it fails.
import { describe, expect, it } from "vitest";
import type { SpanOptions, TraceContext, TraceSpan, Tracing } from "../../platform/tracing/tracing.ts";
import { traceLater } from "./trace-receiver.ts";

function recordingTracing() {
  const started: Array<{ name: string; options: SpanOptions; failed?: string; ended: boolean }> = [];
  const tracing: Tracing = {
    extract: () => ({}) as TraceContext,
    fromTraceparent: () => ({}) as TraceContext,
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

const parent = { __traceContext: true } as const;

describe("traceLater", () => {
  it("a processing that succeeds is no span of its own", async () => {
    const { tracing, started } = recordingTracing();
    let ran = false;
    await traceLater(tracing, parent, "receiver process", { a: "b" }, async () => {
      ran = true;
    })();
    expect(ran).toBe(true);
    expect(started).toEqual([]);
  });

  it("a failed processing is a failed span under the request's, from when it started", async () => {
    const { tracing, started } = recordingTracing();
    const before = Date.now();
    const run = traceLater(tracing, parent, "receiver process", { "workbench.integration": "x" }, async () => {
      await new Promise((r) => setTimeout(r, 20));
      throw new Error("replica gone");
    });
    await expect(run()).rejects.toThrow("replica gone");
    expect(started).toHaveLength(1);
    const [span] = started;
    expect(span).toMatchObject({ name: "receiver process", failed: "replica gone", ended: true });
    expect(span!.options).toMatchObject({ kind: "internal", parent, attributes: { "workbench.integration": "x" } });
    expect(span!.options.startTime).toBeGreaterThanOrEqual(before - 1);
    expect(span!.options.startTime).toBeLessThanOrEqual(Date.now() - 15);
  });
});
