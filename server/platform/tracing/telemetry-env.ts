// The OpenTelemetry variables the workbench reads (the specification's names: "Environment Variable
// Specification" and the OTLP exporter's), validated at boot like every other variable (env.ts).
// Nothing goes out unless an OTLP endpoint is set: with none, no SDK is loaded (start-telemetry.ts).
// The SDK reads the others itself from the same environment (headers, sampler argument); the batch
// settings (OTEL_BSP_*) are the export thread's (worker-span-processor.ts).
import { z } from "zod";

const PROTOCOLS = ["http/protobuf", "http/json"] as const;
export type OtlpProtocol = (typeof PROTOCOLS)[number];

const protocol = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    if (value === undefined || (PROTOCOLS as readonly string[]).includes(value)) return;
    const hint = value === "grpc" ? "grpc is not supported here; " : "";
    ctx.addIssue({ code: "custom", message: `${hint}use http/protobuf (the default) or http/json` });
  })
  .transform((value) => value as OtlpProtocol | undefined);

const endpoint = z
  .url({ protocol: /^https?$/ })
  .max(2_000)
  .optional();

/** The spec's sampler names (OTEL_TRACES_SAMPLER); the default is parentbased_always_on. */
const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

export const OTEL_ENV = {
  OTEL_SDK_DISABLED: z.stringbool().default(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: protocol,
  /** `key=value,…`, e.g. an API key of a hosted backend: read by the exporters, never logged. */
  OTEL_EXPORTER_OTLP_HEADERS: z.string().max(8_000).optional(),
  OTEL_TRACES_EXPORTER: z.enum(["otlp", "none"]).default("otlp"),
  OTEL_METRICS_EXPORTER: z.enum(["otlp", "none"]).default("otlp"),
  OTEL_TRACES_SAMPLER: z.enum(SAMPLERS).optional(),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default("incident-platform-workbench"),
  /** Spans handed to the export thread at once, at most (the spec's batch span processor's names and defaults). */
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(512),
  /** Milliseconds a finished span waits at most before it is handed to the export thread. */
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().min(1).max(600_000).default(5_000),
  /** Spans waiting or being exported at most; beyond, a span is dropped. */
  OTEL_BSP_MAX_QUEUE_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(2_048),
  /** Milliseconds between two metric exports (the spec's default: 60 s). */
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(1_000).max(3_600_000).default(60_000),
};

type OtelVars = z.output<z.ZodObject<typeof OTEL_ENV>>;

export type TelemetryConfig = {
  serviceName: string;
  /** Where spans go (the full URL, /v1/traces included), or null: no tracing. */
  traces: { url: string; protocol: OtlpProtocol; batch: SpanBatching } | null;
  /** Where metrics go, or null: /api/metrics only. */
  metrics: { url: string; protocol: OtlpProtocol; intervalMs: number } | null;
};

export type SpanBatching = { maxBatch: number; delayMs: number; maxQueue: number };

/** A signal's URL: its own endpoint as given, else the general one with the signal's path (OTLP exporter spec). */
const signalUrl = (own: string | undefined, general: string | undefined, path: string) =>
  own ?? (general === undefined ? undefined : `${general.replace(/\/+$/, "")}${path}`);

export function telemetryOf(e: OtelVars): TelemetryConfig {
  const tracesUrl = signalUrl(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, e.OTEL_EXPORTER_OTLP_ENDPOINT, "/v1/traces");
  const metricsUrl = signalUrl(e.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, e.OTEL_EXPORTER_OTLP_ENDPOINT, "/v1/metrics");
  const general = e.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  const off = e.OTEL_SDK_DISABLED;
  return {
    serviceName: e.OTEL_SERVICE_NAME,
    traces:
      off || e.OTEL_TRACES_EXPORTER === "none" || !tracesUrl
        ? null
        : {
            url: tracesUrl,
            protocol: e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? general,
            batch: {
              maxBatch: e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE,
              delayMs: e.OTEL_BSP_SCHEDULE_DELAY,
              maxQueue: Math.max(e.OTEL_BSP_MAX_QUEUE_SIZE, e.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
            },
          },
    metrics:
      off || e.OTEL_METRICS_EXPORTER === "none" || !metricsUrl
        ? null
        : {
            url: metricsUrl,
            protocol: e.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? general,
            intervalMs: e.OTEL_METRIC_EXPORT_INTERVAL,
          },
  };
}
