// A GET /about of discovery as a CLIENT span, when tracing is on (docs/observability.md, "Traces"):
// a trace of its own (discovery runs on its schedule, not for a request), whose traceparent goes
// out with the request so the receiver's side joins it. Null when tracing is off: nothing is added.
import { activeTracing, type TraceSpan } from "../../platform/tracing/tracing.ts";
import type { SendResult } from "../sending/send-request.ts";

export function startDiscoverySpan(integrationKey: string, url: string): TraceSpan | null {
  const tracing = activeTracing();
  if (tracing === null) return null;
  return tracing.startSpan("GET /about", {
    kind: "client",
    parent: tracing.fromTraceparent(null),
    attributes: {
      "http.request.method": "GET",
      "url.full": url,
      "url.template": "/about",
      "workbench.integration": integrationKey,
    },
  });
}

export function endDiscoverySpan(span: TraceSpan, result: SendResult): void {
  span.setAttributes({ "http.response.status_code": result.status ?? undefined });
  if (result.status !== 200) span.fail(result.error ?? `HTTP ${result.status}`);
  span.end();
}
