// A log line's trace fields (tracing.ts, traceLogFieldsOr): nothing when tracing is off, the span at
// hand's ids when on, else the ids of the stored traceparent the work continues.
import { afterEach, describe, expect, it } from "vitest";
import { installTracing, traceLogFieldsOr, type TraceSpan, type Tracing } from "./tracing.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const span = { traceId: "a".repeat(32), spanId: "b".repeat(16) } as TraceSpan;

afterEach(() => installTracing(null));

describe("traceLogFieldsOr", () => {
  it("tracing off: undefined, whatever is at hand (the line is as before)", () => {
    expect(traceLogFieldsOr(span, `00-${TRACE}-00f067aa0ba902b7-01`)).toBeUndefined();
    expect({ msg: "x", ...traceLogFieldsOr(null, null) }).toEqual({ msg: "x" });
  });

  it("tracing on: the span's ids first, else the traceparent's, else undefined", () => {
    installTracing({} as Tracing);
    expect(traceLogFieldsOr(span, `00-${TRACE}-00f067aa0ba902b7-01`)).toEqual({
      trace_id: "a".repeat(32),
      span_id: "b".repeat(16),
    });
    expect(traceLogFieldsOr(null, `00-${TRACE}-00f067aa0ba902b7-01`)).toEqual({
      trace_id: TRACE,
      span_id: "00f067aa0ba902b7",
    });
    expect(traceLogFieldsOr(undefined, null)).toBeUndefined();
    expect(traceLogFieldsOr(null, "00-nothex-00f067aa0ba902b7-01")).toBeUndefined();
    expect(traceLogFieldsOr(null, `00-${"0".repeat(32)}-00f067aa0ba902b7-01`)).toBeUndefined();
  });
});
