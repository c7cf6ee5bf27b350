// Starts OpenTelemetry's SDK for Node when an OTLP endpoint is configured (telemetry-env.ts), and
// only then: every package is loaded here by a dynamic import, so a process without one loads none
// of them (the bundle keeps them external: scripts/build-server.mjs). Traces go, in batches (OTEL_BSP_*
// apply), to an export thread that owns the OTLP/HTTP exporter of the configured protocol
// (worker-span-processor.ts: serialising on the main thread cost half of tracing), sampled as
// OTEL_TRACES_SAMPLER says (the SDK reads it; default parentbased_always_on). Metrics: the
// prom-client registries through prom-metric-producer.ts, pushed every OTEL_METRIC_EXPORT_INTERVAL.
// No auto-instrumentation: the spans are the workbench's own (docs/observability.md, "Traces").
import type { Sampler } from "@opentelemetry/sdk-trace-base";
import type { Logger } from "../logger.ts";
import { createOtelTracing } from "./otel-tracing.ts";
import { createPromMetricProducer, type PromMetricsSource } from "./prom-metric-producer.ts";
import type { TelemetryConfig } from "./telemetry-env.ts";
import { installTracing } from "./tracing.ts";

export type Telemetry = {
  /** Exports what is waiting now (spans in the batch, the metrics as they are). */
  flush(): Promise<void>;
  stop(): Promise<void>;
};

const NOTHING: Telemetry = { flush: async () => {}, stop: async () => {} };

export async function startTelemetry(
  config: TelemetryConfig,
  options: { logger: Logger; metrics?: PromMetricsSource; serviceVersion?: string },
): Promise<Telemetry> {
  if (!config.traces && !(config.metrics && options.metrics)) return NOTHING;
  const api = await import("@opentelemetry/api");
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } =
    await import("@opentelemetry/resources");
  // The SDK's own failures (a collector that does not answer) as warnings in the log: never its payloads or headers.
  const log = options.logger.child({ component: "opentelemetry" });
  api.diag.setLogger(
    {
      error: (message) => log.warn(message),
      warn: (message) => log.warn(message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    api.DiagLogLevel.WARN,
  );
  const resource = defaultResource()
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(
      resourceFromAttributes({ "service.name": config.serviceName, "service.version": options.serviceVersion ?? "" }),
    );
  const stops: Array<() => Promise<void>> = [];
  const flushes: Array<() => Promise<void>> = [];
  if (config.traces) {
    // sdk-trace-base's provider, not sdk-trace-node's: no context manager (AsyncLocalStorage) and no
    // global registration. Context is passed explicitly (tracing.ts); Next's thread and Prisma see no provider.
    const { BasicTracerProvider } = await import("@opentelemetry/sdk-trace-base");
    const { W3CTraceContextPropagator } = await import("@opentelemetry/core");
    const { WorkerSpanProcessor } = await import("./worker-span-processor.ts");
    await resource.waitForAsyncAttributes?.();
    const scope = { name: "incident-platform-workbench", version: options.serviceVersion };
    const processor = new WorkerSpanProcessor({
      url: config.traces.url,
      protocol: config.traces.protocol,
      resource: resource.attributes,
      scope,
      ...config.traces.batch,
      onError: (message) => log.warn(message),
    });
    const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
    flushes.push(() => provider.forceFlush());
    // The facade makes its own spans (otel-tracing.ts) but asks the sampler the provider built from
    // OTEL_TRACES_SAMPLER / _ARG (the SDK's own reading of them), found on its tracer.
    const sampler = (provider.getTracer(scope.name, scope.version) as unknown as { _sampler?: Sampler })._sampler;
    if (sampler === undefined) throw new Error("OpenTelemetry: the SDK's tracer has no sampler where 2.x keeps it");
    installTracing(createOtelTracing(api, sampler, new W3CTraceContextPropagator(), processor));
    stops.push(async () => {
      installTracing(null);
      await provider.shutdown(); // exports what the batch still holds
    });
  }
  if (config.metrics && options.metrics) {
    const sdk = await import("@opentelemetry/sdk-metrics");
    const { OTLPMetricExporter } =
      config.metrics.protocol === "http/json"
        ? await import("@opentelemetry/exporter-metrics-otlp-http")
        : await import("@opentelemetry/exporter-metrics-otlp-proto");
    const reader = new sdk.PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({ url: config.metrics.url }),
      exportIntervalMillis: config.metrics.intervalMs,
      exportTimeoutMillis: Math.min(30_000, config.metrics.intervalMs),
      metricProducers: [createPromMetricProducer(sdk, api, options.metrics)],
    });
    const meters = new sdk.MeterProvider({ resource, readers: [reader] });
    flushes.push(() => meters.forceFlush());
    stops.push(() => meters.shutdown()); // a last export
  }
  log.info(
    {
      traces: config.traces && { protocol: config.traces.protocol },
      metrics: config.metrics && { protocol: config.metrics.protocol },
    },
    "OpenTelemetry export started",
  );
  return {
    async flush() {
      await Promise.allSettled(flushes.map((flush) => flush()));
    },
    async stop() {
      await Promise.allSettled(stops.map((stop) => stop()));
    },
  };
}
