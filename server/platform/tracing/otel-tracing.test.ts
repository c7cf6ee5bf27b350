// The facade's own spans (otel-tracing.ts): ids, parentage, the SDK's sampler consulted for each span,
// and what reaches the export batch.
import * as api from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createOtelTracing, type FinishedSpan } from "./otel-tracing.ts";

function setUp(sampler: Sampler = new ParentBasedSampler({ root: new AlwaysOnSampler() })) {
  const finished: FinishedSpan[] = [];
  const tracing = createOtelTracing(api, sampler, new W3CTraceContextPropagator(), {
    appendSpan: (span) => finished.push({ ...span, attributes: { ...span.attributes } }),
  });
  return { tracing, finished };
}

const CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("the facade's spans", () => {
  it("a root, a child and a remote parent: ids, traceparents, parents, kinds, times, attributes, status", () => {
    const { tracing, finished } = setUp();
    const server = tracing.startSpan("GET", {
      kind: "server",
      parent: tracing.extract((name) => (name === "traceparent" ? CALLER : undefined)),
      attributes: { "url.path": "/x", absent: undefined },
    });
    expect(server.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(server.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(server.traceparent).toBe(`00-${server.traceId}-${server.spanId}-01`);
    const change = tracing.startSpan("incident change", { kind: "internal", parent: server.context });
    tracing.annotate(change.context, { "workbench.change.seq": 7 });
    expect(tracing.traceparentOf(change.context)).toBe(change.traceparent);
    change.fail("conflict");
    change.end();
    server.rename("GET /x");
    server.setAttributes({ "http.response.status_code": 200 });
    server.end();
    server.setAttributes({ late: true }); // ended: ignored
    const root = tracing.startSpan("GET /about", { kind: "client", parent: tracing.fromTraceparent(null) });
    root.end();

    expect(finished.map((s) => s.name)).toEqual(["incident change", "GET /x", "GET /about"]);
    const [c, s, r] = finished;
    expect(s).toMatchObject({
      kind: api.SpanKind.SERVER,
      parentSpanId: "00f067aa0ba902b7",
      parentRemote: true,
      traceFlags: 1,
      statusCode: 0,
      attributes: { "url.path": "/x", "http.response.status_code": 200 },
    });
    expect(s!.attributes).not.toHaveProperty("late");
    expect(c).toMatchObject({
      kind: api.SpanKind.INTERNAL,
      traceId: server.traceId,
      parentSpanId: server.spanId,
      parentRemote: false,
      statusCode: 2,
      statusMessage: "conflict",
      attributes: { "workbench.change.seq": 7 },
    });
    expect(r!.parentSpanId).toBeUndefined();
    expect(r!.traceId).not.toBe(server.traceId);
    expect(r!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(s!.endTime).toBeGreaterThanOrEqual(s!.startTime);
    expect(Math.abs(s!.startTime - Date.now())).toBeLessThan(5_000);
  });

  it("links: a stored traceparent becomes a link's span context", () => {
    const { tracing, finished } = setUp();
    tracing
      .startSpan("receiver process", {
        kind: "internal",
        parent: tracing.fromTraceparent(CALLER),
        links: ["00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbb-01", "not a traceparent"],
        startTime: Date.now() - 50,
      })
      .end();
    expect(finished[0]!.links?.map((l) => l.context.spanId)).toEqual(["bbbbbbbbbbbbbbbb"]);
    expect(finished[0]!.endTime - finished[0]!.startTime).toBeGreaterThanOrEqual(49);
  });

  it("asks the sampler for every span: a dropped root is not exported and says so in its flags; its children follow it", () => {
    const { tracing, finished } = setUp(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0) }));
    const root = tracing.startSpan("dropped", { kind: "server" });
    expect(root.traceparent).toMatch(/-00$/);
    const child = tracing.startSpan("child", { kind: "internal", parent: root.context });
    expect(child.traceparent).toMatch(/-00$/);
    child.end();
    root.end();
    // A caller that sampled its trace decides for the parent-based sampler.
    tracing.startSpan("kept", { kind: "server", parent: tracing.fromTraceparent(CALLER) }).end();
    expect(finished.map((s) => s.name)).toEqual(["kept"]);
  });
});

describe("the SDK's sampler from the environment", () => {
  const saved = process.env.OTEL_TRACES_SAMPLER;
  afterEach(() => {
    if (saved === undefined) delete process.env.OTEL_TRACES_SAMPLER;
    else process.env.OTEL_TRACES_SAMPLER = saved;
  });

  it("is where start-telemetry.ts reads it: the provider's tracer keeps it as _sampler", () => {
    process.env.OTEL_TRACES_SAMPLER = "always_off";
    const tracer = new BasicTracerProvider().getTracer("probe") as unknown as { _sampler?: Sampler };
    expect(tracer._sampler?.toString()).toBe("AlwaysOffSampler");
  });
});
