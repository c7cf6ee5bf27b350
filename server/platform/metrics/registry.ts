// The process's one metrics registry (prom-client), and the metrics the workbench records in it:
// what GET /api/metrics exposes (docs/observability.md). Each process counts what it served and
// delivered itself; a scrape of one process shows that process's counters only. The lane backlog is
// not here: it is read from the database at scrape time (server/http/metrics.ts).
//
// The modules that record call the small typed functions below, so a label is always one of a
// bounded set (an integration key, a status code or one of a few outcome words, a route template),
// never a caller's free text: an unbounded label would grow the registry without limit.
import { Counter, Histogram, Registry } from "prom-client";
import { processSingleton } from "../process-singleton.ts";

/** Seconds; the buckets the HTTP semantic conventions advise for http.server.request.duration. */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Seconds from production to acceptance: most within the first attempt, the rest up to the hour of expiry. */
const DELIVERY_LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800, 3600];

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    deliveryAttempts: new Counter({
      name: "workbench_delivery_attempts_total",
      help: "Webhook delivery attempts, by integration and outcome (the HTTP status, or timeout, refused, error).",
      labelNames: ["integration", "status"] as const,
      registers,
    }),
    deliveryLag: new Histogram({
      name: "workbench_delivery_lag_seconds",
      help: "From an event's production (Service-Request-Timestamp) to its acceptance (the 200), on the workbench clock.",
      labelNames: ["integration"] as const,
      buckets: DELIVERY_LAG_BUCKETS,
      registers,
    }),
    tokensIssued: new Counter({
      name: "workbench_tokens_issued_total",
      help: "Access tokens issued by the token endpoint, by grant type.",
      labelNames: ["grant_type"] as const,
      registers,
    }),
    httpServerDuration: new Histogram({
      name: "http_server_request_duration_seconds",
      help: "Duration of HTTP server requests (semantic conventions: http.server.request.duration).",
      labelNames: ["http_request_method", "http_route", "http_response_status_code"] as const,
      buckets: HTTP_DURATION_BUCKETS,
      registers,
    }),
  };
}

// Looked up once per module load, not per increment (the HTTP histogram is on every request's path).
const metrics = processSingleton("metrics", createMetrics);

/** The registry /api/metrics renders. */
export const metricsRegistry = (): Registry => metrics.registry;

/** An attempt's outcome as a bounded label: the HTTP status, or why there was none. */
export type AttemptStatus = number | "timeout" | "refused" | "error";

export function recordDeliveryAttempt(integration: string, status: AttemptStatus): void {
  metrics.deliveryAttempts.labels(integration, String(status)).inc();
}

/** An accepted event: `lagMs` from its production to its acceptance, on the workbench clock. */
export function recordDeliveryAccepted(integration: string, lagMs: number): void {
  metrics.deliveryLag.labels(integration).observe(Math.max(0, lagMs) / 1000);
}

export function recordTokenIssued(grantType: "client_credentials" | "authorization_code" | "refresh_token"): void {
  metrics.tokensIssued.labels(grantType).inc();
}

/** One served request; `route` is the matched route's template (never the raw path). */
export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  metrics.httpServerDuration.labels(method, route, String(status)).observe(Math.max(0, seconds));
}
