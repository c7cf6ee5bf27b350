// A delivery attempt as a CLIENT span (docs/observability.md, "Traces"), when tracing is on: the
// child of the incident change that produced the event (the row's traceparent, decision 0054), so it sits
// in the trace of the request whose change it carries, however much later and in whichever process
// it runs. Its own traceparent goes out in the request's headers (W3C Trace Context): a partner's
// receiver joins the trace, the embedded receivers continue it. With tracing off deliver-event.ts
// gets null and adds nothing: no span, no header.
import { activeTracing, type TraceSpan } from "../../platform/tracing/tracing.ts";
import type { ClaimedDelivery } from "../outbox/outbox-row.ts";
import type { AttemptRecord } from "./record-outcome.ts";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The attempt's span, started before the request is sent; null when tracing is off. */
export function startAttemptSpan(row: ClaimedDelivery, url: string): TraceSpan | null {
  const tracing = activeTracing();
  if (tracing === null) return null;
  // The receiver route's template: the incident id is the only variable part of an event's path.
  const template = row.path.replace(UUID, "{incidentId}");
  return tracing.startSpan(`${row.method} ${template}`, {
    kind: "client",
    parent: tracing.fromTraceparent(row.traceparent),
    attributes: {
      "http.request.method": row.method,
      "url.full": url,
      "url.template": template,
      // The conventions' resend count: set on a resend only (the first attempt has none).
      "http.request.resend_count": row.attemptCount > 0 ? row.attemptCount : undefined,
      "workbench.integration": row.integrationKey,
      "workbench.incident.id": row.incidentId,
      "workbench.service_request_id": row.requestId,
      "workbench.event": row.eventName,
    },
  });
}

/** Ends the span with the attempt's outcome: only a 200 accepts an event (Delivery rule 1). */
export function endAttemptSpan(span: TraceSpan, attempt: AttemptRecord): void {
  span.setAttributes({
    "http.response.status_code": attempt.status ?? undefined,
    "error.type":
      attempt.status === null ? errorType(attempt.error) : attempt.status !== 200 ? String(attempt.status) : undefined,
  });
  if (attempt.status !== 200) span.fail(attempt.error ?? `HTTP ${attempt.status}`);
  span.end();
}

/** A bounded error.type for an attempt without an answer (the metrics' outcome words). */
function errorType(error: string | null): string {
  if (error?.startsWith("timeout")) return "timeout";
  if (error?.startsWith("refused") || error?.startsWith("ECONNREFUSED")) return "refused";
  return "_OTHER";
}
