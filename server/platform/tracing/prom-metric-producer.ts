// The metrics of GET /api/metrics over OTLP (docs/observability.md, "Metrics over OTLP"): a
// MetricProducer of the OpenTelemetry metrics SDK that reads the prom-client registries at each
// export and hands their values over as they are. One set of instruments, one set of figures: the
// scrape and the push never disagree, and the hot paths keep their one prom-client update. No second
// instrumentation through OpenTelemetry's own API (decision 0054).
//
// The mapping: a counter is a cumulative monotonic sum named without Prometheus's `_total`; a gauge a
// gauge; a histogram a cumulative explicit-bucket histogram (prom-client's cumulative bucket counts
// turned into per-bucket ones). Start times are the process's start, when every counter began at 0.
// The HTTP server histogram goes under its semantic-conventions name and attribute keys
// (http.server.request.duration, http.request.method, …), the others under their Prometheus names.
// Types only: start-telemetry.ts hands in the SDK module it loaded.
import type * as Api from "@opentelemetry/api";
import type * as SdkMetrics from "@opentelemetry/sdk-metrics";
import type { MetricObjectWithValues, MetricValue } from "prom-client";

export type PromMetric = MetricObjectWithValues<MetricValue<string>>;
/** The registries' metrics as prom-client's getMetricsAsJSON() gives them, at export time. */
export type PromMetricsSource = () => Promise<PromMetric[]>;

const SEMCONV_NAMES: Record<string, { name: string; attributes: Record<string, string> }> = {
  http_server_request_duration_seconds: {
    name: "http.server.request.duration",
    attributes: {
      http_request_method: "http.request.method",
      http_route: "http.route",
      http_response_status_code: "http.response.status_code",
    },
  },
};

type Labels = Record<string, string | number | undefined>;

function hrTime(ms: number): Api.HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

export function createPromMetricProducer(
  sdk: typeof SdkMetrics,
  api: typeof Api,
  source: PromMetricsSource,
): SdkMetrics.MetricProducer {
  const startTime = hrTime(performance.timeOrigin);
  const toMetric = (metric: PromMetric, endTime: Api.HrTime): SdkMetrics.MetricData | null => {
    const semconv = SEMCONV_NAMES[metric.name];
    const attributesOf = (labels: Labels): Api.Attributes => {
      const out: Api.Attributes = {};
      for (const key in labels)
        if (key !== "le" && labels[key] !== undefined) out[semconv?.attributes[key] ?? key] = String(labels[key]);
      return out;
    };
    // prom-client's JSON names the type by its string ("counter"), which its typings call an enum.
    const type = metric.type as unknown as string;
    const descriptor = {
      name: semconv?.name ?? (type === "counter" ? metric.name.replace(/_total$/, "") : metric.name),
      description: metric.help,
      unit: metric.name.endsWith("_seconds") ? "s" : "",
      valueType: api.ValueType.DOUBLE,
    };
    const base = { descriptor, aggregationTemporality: sdk.AggregationTemporality.CUMULATIVE };
    const point = <T>(labels: Labels, value: T) => ({ startTime, endTime, attributes: attributesOf(labels), value });
    switch (type) {
      case "counter":
        return {
          ...base,
          dataPointType: sdk.DataPointType.SUM,
          isMonotonic: true,
          dataPoints: metric.values.map((v) => point(v.labels, v.value)),
        };
      case "gauge":
        return {
          ...base,
          dataPointType: sdk.DataPointType.GAUGE,
          dataPoints: metric.values.map((v) => point(v.labels, v.value)),
        };
      case "histogram":
        return { ...base, dataPointType: sdk.DataPointType.HISTOGRAM, dataPoints: histogramPoints(metric, point) };
      default:
        return null; // summaries: none is registered
    }
  };
  return {
    async collect() {
      const metrics = await source();
      const endTime = hrTime(Date.now());
      return {
        resourceMetrics: {
          // Ignored: the reader's SDK puts its own resource on what it exports (MetricReaderOptions).
          resource: undefined as unknown as SdkMetrics.ResourceMetrics["resource"],
          scopeMetrics: [
            {
              scope: { name: "incident-platform-workbench/prom-client" },
              metrics: metrics.map((m) => toMetric(m, endTime)).filter((m) => m !== null),
            },
          ],
        },
        errors: [],
      };
    },
  };
}

type Histogram = { buckets: { boundaries: number[]; counts: number[] }; sum: number; count: number };

/** prom-client's series of one histogram (…_bucket{le}, …_sum, …_count) as one point per label set. */
function histogramPoints<P>(metric: PromMetric, point: (labels: Labels, value: Histogram) => P): P[] {
  const series = new Map<string, { labels: Labels; buckets: Array<[number, number]>; sum: number; count: number }>();
  for (const v of metric.values) {
    const { le, ...labels } = v.labels as Labels;
    const key = JSON.stringify(labels);
    let s = series.get(key);
    if (!s) series.set(key, (s = { labels, buckets: [], sum: 0, count: 0 }));
    const name = (v as { metricName?: string }).metricName ?? "";
    if (name.endsWith("_bucket")) s.buckets.push([le === "+Inf" ? Infinity : Number(le), v.value]);
    else if (name.endsWith("_sum")) s.sum = v.value;
    else if (name.endsWith("_count")) s.count = v.value;
  }
  return [...series.values()].map((s) => {
    const sorted = s.buckets.toSorted((a, b) => a[0] - b[0]);
    const boundaries = sorted.filter(([le]) => Number.isFinite(le)).map(([le]) => le);
    const counts: number[] = [];
    let below = 0;
    for (const [, cumulative] of sorted) {
      counts.push(cumulative - below);
      below = cumulative;
    }
    if (counts.length === boundaries.length) counts.push(s.count - below); // no +Inf bucket listed
    return point(s.labels, { buckets: { boundaries, counts }, sum: s.sum, count: s.count });
  });
}
