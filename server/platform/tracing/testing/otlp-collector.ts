// A tiny OTLP/HTTP collector for tests: accepts POST /v1/traces and /v1/metrics in the JSON
// protocol (OTLP's JSON encoding: ids in hex, attributes as {key, value: {stringValue|intValue|…}})
// and keeps what it got, spans flattened with their resource's service.name.
import http from "node:http";
import type { AddressInfo } from "node:net";

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };

export type CollectedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number; message?: string };
  /** Epoch nanoseconds, as OTLP's JSON writes them (strings). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  service: string;
};

export type CollectedMetric = {
  name: string;
  unit?: string;
  sum?: { isMonotonic?: boolean; dataPoints: Array<{ attributes?: KeyValue[]; asDouble?: number }> };
  gauge?: { dataPoints: Array<{ attributes?: KeyValue[]; asDouble?: number }> };
  histogram?: {
    dataPoints: Array<{ attributes?: KeyValue[]; count: number | string; bucketCounts: Array<number | string> }>;
  };
};

export function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? [])
    out[key] =
      value.stringValue ??
      (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
      value.doubleValue ??
      value.boolValue ??
      "";
  return out;
}

export async function startOtlpCollector() {
  const spans: CollectedSpan[] = [];
  const metrics: CollectedMetric[] = [];
  const contentTypes: string[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (raw += c));
    req.on("end", () => {
      contentTypes.push(req.headers["content-type"] ?? "");
      if (req.method !== "POST" || !req.headers["content-type"]?.startsWith("application/json")) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(raw) as Record<string, unknown>;
      if (req.url === "/v1/traces") collectSpans(body, spans);
      else if (req.url === "/v1/metrics") collectMetrics(body, metrics);
      else return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    metrics,
    contentTypes,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function collectSpans(body: Record<string, unknown>, into: CollectedSpan[]) {
  type Raw = Omit<CollectedSpan, "attributes" | "service" | "links" | "parentSpanId"> & {
    parentSpanId?: string;
    attributes?: KeyValue[];
    links?: Array<{ traceId: string; spanId: string }>;
  };
  const resources = body.resourceSpans as Array<{
    resource: { attributes: KeyValue[] };
    scopeSpans: Array<{ spans: Raw[] }>;
  }>;
  for (const r of resources) {
    const service = String(attributesOf(r.resource.attributes)["service.name"]);
    for (const scope of r.scopeSpans)
      for (const s of scope.spans)
        into.push({
          ...s,
          parentSpanId: s.parentSpanId ?? "",
          attributes: attributesOf(s.attributes),
          links: s.links ?? [],
          service,
        });
  }
}

function collectMetrics(body: Record<string, unknown>, into: CollectedMetric[]) {
  const resources = body.resourceMetrics as Array<{ scopeMetrics: Array<{ metrics: CollectedMetric[] }> }>;
  for (const r of resources) for (const scope of r.scopeMetrics) into.push(...scope.metrics);
}
