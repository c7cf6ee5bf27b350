import { describe, expect, it } from "vitest";
import { parseEnv } from "../env.ts";

const telemetry = (vars: Record<string, string>) => parseEnv(vars).TELEMETRY;

describe("the OTEL_* variables (telemetry-env.ts)", () => {
  it("none set: nothing goes out (no SDK is started)", () => {
    expect(telemetry({})).toMatchObject({ traces: null, metrics: null, serviceName: "incident-platform-workbench" });
  });

  it("the general endpoint: each signal at its own path, http/protobuf by default", () => {
    const t = telemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" });
    expect(t.traces).toEqual({
      url: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      batch: { maxBatch: 512, delayMs: 5_000, maxQueue: 2_048 },
    });
    expect(t.metrics).toEqual({
      url: "http://collector:4318/v1/metrics",
      protocol: "http/protobuf",
      intervalMs: 60_000,
    });
  });

  it("a signal's own endpoint is used as given, and its own protocol wins", () => {
    const t = telemetry({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.test/otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      OTEL_SERVICE_NAME: "wb-staging",
    });
    expect(t.traces).toMatchObject({ url: "https://traces.example.test/otlp", protocol: "http/protobuf" });
    expect(t.metrics).toBeNull();
    expect(t.serviceName).toBe("wb-staging");
  });

  it("off by OTEL_SDK_DISABLED or a signal's exporter `none`", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(telemetry({ ...endpoint, OTEL_SDK_DISABLED: "true" })).toMatchObject({ traces: null, metrics: null });
    expect(telemetry({ ...endpoint, OTEL_METRICS_EXPORTER: "none" }).metrics).toBeNull();
    expect(telemetry({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }).traces).toBeNull();
  });

  it("refuses what it cannot do, saying why", () => {
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/grpc is not supported here/);
    expect(() => parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => parseEnv({ OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => parseEnv({ OTEL_METRIC_EXPORT_INTERVAL: "10" })).toThrow(/OTEL_METRIC_EXPORT_INTERVAL/);
  });

  it("TRACE_UI_URL must be an http(s) URL with {traceId}", () => {
    expect(parseEnv({ TRACE_UI_URL: "http://localhost:16686/trace/{traceId}" }).TRACE_UI_URL).toBe(
      "http://localhost:16686/trace/{traceId}",
    );
    expect(() => parseEnv({ TRACE_UI_URL: "http://localhost:16686/trace/" })).toThrow(/\{traceId\}/);
    expect(() => parseEnv({ TRACE_UI_URL: "javascript:alert(1)//{traceId}" })).toThrow(/TRACE_UI_URL/);
  });
});
