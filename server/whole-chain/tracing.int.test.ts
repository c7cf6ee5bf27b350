// Traces over OTLP, end to end (docs/observability.md, "Traces"): the SDK started as main.ts starts
// it, exporting OTLP/HTTP JSON to a collector this test runs; a partner's receiver (a real HTTP
// server, not the workbench's) beside the embedded one. A request with a caller's traceparent, its
// incident change (its planning told in it), each delivery attempt, the partner's traceparent and the
// embedded receiver's request and its processing batch are one trace (decision 0054); a retry counts its
// resends; log lines carry the ids; the metrics of /api/metrics arrive over OTLP too.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsAsJson } from "../http/metrics.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
import { startTelemetry, type Telemetry } from "../platform/tracing/start-telemetry.ts";
import { activeTracing } from "../platform/tracing/tracing.ts";
import { startOtlpCollector, attributesOf, type CollectedSpan } from "../platform/tracing/testing/otlp-collector.ts";
import type { Runtime } from "../runtime.ts";
import { acceptDeclaration } from "../webhooks/testing/accept-declaration.ts";
import { startRecordingReceiver, type RecordingReceiver } from "../webhooks/testing/recording-receiver.ts";
import { V3_FLAGS } from "../webhook-contracts/v3/capability-flags.ts";
import { defaultDeclaration } from "../reference-receiver/capabilities.ts";
import { describeDelivery } from "../webhooks/admin/describe-delivery.ts";
import { discoverIntegration } from "../webhooks/discovery/discover-integration.ts";
import { waitForEvents } from "../webhooks/testing/webhook-harness.ts";
import { advanceClock } from "../workbench/clock-control.ts";
import { AGENCY, startScenario, waitUntil, type Scenario } from "./testing/scenario-fixture.ts";

const PARTNER = "otel-partner";
const NOT_ACCEPTED = "webhook integration not accepted at /about; events wait in the queue up to their hour";
const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";

let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
let telemetry: Telemetry;
let s: Scenario;
let partner: RecordingReceiver;
let runtime: Runtime | undefined;

beforeAll(async () => {
  collector = await startOtlpCollector();
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "workbench-under-test",
  };
  telemetry = await startTelemetry(parseEnv({ NODE_ENV: "test", ...env }).TELEMETRY, {
    logger: createLogger({ level: "silent" }),
    metrics: () => (runtime ? metricsAsJson(runtime) : Promise.resolve([])),
  });
  s = await startScenario({ env });
  runtime = s.runtime;
  partner = await startRecordingReceiver({ about: defaultDeclaration() });
  // A partner's own receiver for the north agency, accepted as discovery would accept it.
  await acceptDeclaration(s.runtime.db, [PARTNER], V3_FLAGS, s.runtime.clock.now());
  await s.runtime.db.integration.create({
    data: {
      key: PARTNER,
      agencyId: AGENCY.northPsap,
      receiverUrl: partner.url,
      insecureDev: true,
      createdAt: s.runtime.clock.now(),
    },
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
  await partner?.close();
  await telemetry?.stop();
  await collector?.close();
});

/** Flushes the SDK until `find` holds over what the collector has (the batch exports on its own schedule). */
async function spansWhere(find: (spans: CollectedSpan[]) => boolean): Promise<CollectedSpan[]> {
  const until = Date.now() + 15_000;
  while (!find(collector.spans)) {
    if (Date.now() > until)
      throw new Error(`spans never matched; have: ${collector.spans.map((x) => x.name).join(", ")}`);
    await telemetry.flush();
    await new Promise((r) => setTimeout(r, 50));
  }
  return collector.spans;
}

const isReceiverRoute = (x: CollectedSpan) => String(x.attributes["http.route"] ?? "").startsWith("/receivers/");
const child = (spans: CollectedSpan[], parent: CollectedSpan, name: string) =>
  spans.filter((x) => x.parentSpanId === parent.spanId && x.traceId === parent.traceId && x.name === name);

describe("traces over OTLP/HTTP JSON", () => {
  it("is on: the SDK installed the facade", () => {
    expect(activeTracing()).not.toBeNull();
  });

  it("a created incident: request → change (with its planning) → attempts (partner and embedded) → receiver request, one trace", async () => {
    const token = await s.requestToken();
    const res = await fetch(`${s.server.url}/v1/incidents`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      },
      body: JSON.stringify({
        routingMode: "TokenAgency",
        requestedIncidentId: randomUUID(),
        caller: { phoneNumber: "+4795512345" },
      }),
    });
    expect(res.status).toBe(201);
    const incidentId = ((await res.json()) as { incidentId: string }).incidentId;
    await s.settled(incidentId);
    await waitUntil(async () => partner.received.some((r) => r.incidentId === incidentId));

    const spans = await spansWhere(
      (all) =>
        all.filter((x) => x.name.startsWith("POST /v3/") && x.attributes["workbench.incident.id"] === incidentId)
          .length >= 2 && all.some((x) => x.kind === 2 && x.traceId === CALLER_TRACE && isReceiverRoute(x)),
    );
    const server = spans.find((x) => x.traceId === CALLER_TRACE && x.kind === 2 && x.name === "POST /v1/incidents")!;
    expect(server).toBeDefined();
    expect(server.parentSpanId).toBe(CALLER_SPAN);
    expect(server.service).toBe("workbench-under-test");
    expect(server.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v1/incidents",
      "http.response.status_code": 201,
      "url.path": "/v1/incidents",
    });

    const [change] = child(spans, server, "incident change");
    expect(change?.attributes).toMatchObject({
      "workbench.incident.id": incidentId,
      "workbench.change.kinds": "incident.created",
    });
    expect(typeof change?.attributes["workbench.change.seq"]).toBe("number");
    // The planning is told in the change's span, not a span of its own.
    expect(change?.attributes["workbench.events.planned"]).toBeGreaterThanOrEqual(2);
    expect(spans.filter((x) => x.traceId === CALLER_TRACE && x.name === "plan webhook events")).toEqual([]);

    const attempts = spans.filter((x) => x.parentSpanId === change!.spanId && x.kind === 3);
    const deliveries = await s.runtime.db.webhookDelivery.findMany({ where: { incidentId } });
    const partnerRow = deliveries.find((d) => d.integrationKey === PARTNER)!;
    const toPartner = attempts.find((x) => x.attributes["workbench.integration"] === PARTNER)!;
    expect(toPartner.traceId).toBe(CALLER_TRACE);
    expect(toPartner.name).toBe("POST /v3/incidents");
    expect(toPartner.attributes).toMatchObject({
      "http.request.method": "POST",
      "url.full": `${partner.url}/v3/incidents`,
      "http.response.status_code": 200,
      "workbench.incident.id": incidentId,
      "workbench.service_request_id": partnerRow.requestId,
    });
    expect(toPartner.attributes["http.request.resend_count"]).toBeUndefined();
    // The row keeps the change's span: the attempt's parent, whichever process sends it.
    expect(partnerRow.traceparent).toBe(`00-${CALLER_TRACE}-${change!.spanId}-01`);

    // The partner's receiver got the attempt's span as its parent: it joins the trace.
    const got = partner.received.find((r) => r.incidentId === incidentId)!;
    expect(got.headers.traceparent).toBe(`00-${CALLER_TRACE}-${toPartner.spanId}-01`);
    // …and the inspector's attempt record shows it (its trace id is what the dashboard links).
    const recorded = await s.runtime.db.webhookAttempt.findFirst({ where: { deliveryId: partnerRow.id } });
    expect((recorded?.requestHeaders as Record<string, string>).traceparent).toBe(got.headers.traceparent);
    const inspected = await describeDelivery({
      db: s.runtime.db,
      requestId: partnerRow.requestId,
      traceUiUrl: "http://localhost:16686/trace/{traceId}",
    });
    expect(inspected.attempts[0]).toMatchObject({
      traceId: CALLER_TRACE,
      traceUrl: `http://localhost:16686/trace/${CALLER_TRACE}`,
    });
    const withoutUi = await describeDelivery({ db: s.runtime.db, requestId: partnerRow.requestId });
    expect(withoutUi.attempts[0]).toMatchObject({ traceId: CALLER_TRACE, traceUrl: null });

    // The embedded receiver continues it: its request span (the record) under the attempt, then the
    // processing after the answer, one span a batch: the child of the first request it settled,
    // linked to the others' (decision 0054).
    const toNorth = attempts.find((x) => x.attributes["workbench.integration"] === "north-psap")!;
    const [received] = spans.filter((x) => x.parentSpanId === toNorth.spanId && x.kind === 2);
    expect(received?.attributes["http.route"]).toMatch(/^\/receivers\/\{key\}/);
    expect(received?.attributes["http.response.status_code"]).toBe(200);
    await s.settled(incidentId, "north-psap"); // every record the embedded receiver got is processed
    const follows = (x: CollectedSpan) =>
      x.name === "receiver process" &&
      ((x.traceId === CALLER_TRACE && x.parentSpanId === received!.spanId) ||
        x.links.some((l) => l.traceId === CALLER_TRACE && l.spanId === received!.spanId));
    const processed = (await spansWhere((all) => all.some(follows))).filter(follows);
    expect(processed).toHaveLength(1);
    const [processing] = processed;
    expect(processing!.kind).toBe(1); // internal
    expect(processing!.status.code ?? 0).not.toBe(2);
    expect(processing!.attributes["workbench.receiver.records"]).toBeGreaterThanOrEqual(1);
    expect(processing!.attributes["workbench.receiver.pairs"]).toBeGreaterThanOrEqual(1);
    // It runs after the answer: it ends after the request's span.
    expect(BigInt(processing!.endTimeUnixNano)).toBeGreaterThan(BigInt(received!.endTimeUnixNano));
  });

  it("a change without a caller's trace starts one; a failed attempt is an error and its retry counts a resend", async () => {
    const token = await s.requestToken();
    const incidentId = await s.createIncident(token);
    await s.settled(incidentId);
    let failed = false;
    partner.respondWith((r) => (r.incidentId === incidentId && !failed ? ((failed = true), 503) : 200));
    await s.step(token, "PATCH", `/v1/incidents/${incidentId}/summary`, { summary: "traced" });
    await s.settled(incidentId);
    const isRetried = (x: CollectedSpan) =>
      x.attributes["workbench.incident.id"] === incidentId && x.attributes["http.request.resend_count"] === 1;
    const spans = await spansWhere((all) => all.some(isRetried));
    const retry = spans.find(isRetried)!;
    const first = spans.find(
      (x) =>
        x.kind === 3 &&
        x.attributes["workbench.service_request_id"] === retry.attributes["workbench.service_request_id"] &&
        x.attributes["http.request.resend_count"] === undefined,
    )!;
    expect(first.attributes["http.response.status_code"]).toBe(503);
    expect(first.status.code).toBe(2); // ERROR
    expect(retry.attributes["http.response.status_code"]).toBe(200);
    // Both attempts are children of the one change, in the PATCH request's trace (a new trace).
    expect(retry.parentSpanId).toBe(first.parentSpanId);
    const change = spans.find((x) => x.spanId === first.parentSpanId)!;
    expect(change.name).toBe("incident change");
    expect(change.attributes["workbench.change.kinds"]).toContain("summary");
    const server = spans.find((x) => x.spanId === change.parentSpanId)!;
    expect(server.name).toBe("PATCH /v1/incidents/{incidentId}/summary");
    expect(server.parentSpanId).toBe("");
    expect(server.traceId).not.toBe(CALLER_TRACE);
    partner.respondWith(() => 200);
  });

  it("a request's log line carries its span's trace and span ids", () => {
    const line = s.server.logs
      .records()
      .find((r) => r.msg === "request" && r.path === "/v1/incidents" && r.trace_id === CALLER_TRACE);
    expect(line).toBeDefined();
    const server = collector.spans.find((x) => x.traceId === CALLER_TRACE && x.name === "POST /v1/incidents")!;
    expect(line!.span_id).toBe(server.spanId);
  });

  it("other log lines of traced work carry the ids too: a request's problem, a discovery's warning", async () => {
    const token = await s.requestToken();
    const trace = "5a1e0c7d9b3f4e2a8c6d0b1f3e5a7c9d";
    const res = await fetch(`${s.server.url}/v1/incidents/${randomUUID()}`, {
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${trace}-${CALLER_SPAN}-01` },
    });
    expect(res.status).toBe(404);
    const spans = await spansWhere((all) => all.some((x) => x.traceId === trace && x.kind === 2));
    const server = spans.find((x) => x.traceId === trace && x.kind === 2)!;
    const problem = s.server.logs.records().find((r) => r.msg === "inbound problem" && r.trace_id === trace);
    expect(problem).toMatchObject({ status: 404, span_id: server.spanId });

    // A receiver that refuses the connection: discovery's warning names its GET /about span.
    const key = "otel-unreachable";
    await s.runtime.db.integration.create({
      data: {
        key,
        agencyId: AGENCY.northPsap,
        receiverUrl: "http://127.0.0.1:9",
        insecureDev: true,
        createdAt: s.runtime.clock.now(),
      },
    });
    await discoverIntegration(s.runtime, key);
    const warning = s.server.logs.records().find((r) => r.integration === key && r.msg === NOT_ACCEPTED)!;
    expect(warning.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const about = await spansWhere((all) => all.some((x) => x.spanId === warning.span_id));
    expect(about.find((x) => x.spanId === warning.span_id)).toMatchObject({
      name: "GET /about",
      traceId: warning.trace_id,
      attributes: { "workbench.integration": key },
    });
  });

  it("the metrics of /api/metrics go out over OTLP: counters as monotonic sums, histograms, the backlog gauge", async () => {
    const until = Date.now() + 15_000;
    const named = (name: string) => collector.metrics.filter((m) => m.name === name);
    while (named("workbench_delivery_attempts").length === 0 && Date.now() < until) {
      await telemetry.flush();
      await new Promise((r) => setTimeout(r, 50));
    }
    const attempts = named("workbench_delivery_attempts").at(-1)!;
    expect(attempts.sum?.isMonotonic).toBe(true);
    const partnerOk = attempts.sum!.dataPoints.find((p) => {
      const a = attributesOf(p.attributes);
      return a.integration === PARTNER && a.status === "200";
    });
    expect(partnerOk?.asDouble).toBeGreaterThanOrEqual(2);
    const duration = named("http.server.request.duration").at(-1)!;
    expect(duration.unit).toBe("s");
    const created = duration.histogram!.dataPoints.find(
      (p) => attributesOf(p.attributes)["http.route"] === "/v1/incidents",
    );
    expect(attributesOf(created!.attributes)).toMatchObject({
      "http.request.method": "POST",
      "http.response.status_code": "201",
    });
    const counts = created!.bucketCounts.map(Number);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(Number(created!.count));
    expect(named("workbench_lane_backlog").at(-1)?.gauge).toBeDefined();
    expect(collector.contentTypes.every((t) => t.startsWith("application/json"))).toBe(true);
  });
  it("an expired delivery's warning carries its trace: the attempt's span, or the change's", async () => {
    // Last: it moves the workbench clock past the event's hour.
    const token = await s.requestToken();
    const incidentId = await s.createIncident(token);
    await s.settled(incidentId);
    partner.respondWith((r) => (r.incidentId === incidentId ? 503 : 200));
    const attempted = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === incidentId);
    await s.step(token, "PATCH", `/v1/incidents/${incidentId}/summary`, { summary: "expires" });
    await attempted;
    const expired = waitForEvents("delivery:expired", 1, (e) => e.incidentId === incidentId);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 61 * 60_000 });
    const ref = (await expired)[0]![0];
    partner.respondWith(() => 200);
    const line = s.server.logs
      .records()
      .find((r) => r.msg === "webhook delivery expired (one hour after production)" && r.requestId === ref.requestId)!;
    const row = await s.runtime.db.webhookDelivery.findFirstOrThrow({ where: { requestId: ref.requestId } });
    const [, traceId, changeSpan] = row.traceparent!.split("-");
    expect(line.trace_id).toBe(traceId);
    // Expired on a failed attempt: that attempt's span; found expired before sending: the change's.
    const spans = await spansWhere((all) => all.some((x) => x.spanId === line.span_id));
    const named = spans.find((x) => x.spanId === line.span_id)!;
    if (named.spanId !== changeSpan) {
      expect(named.kind).toBe(3);
      expect(named.attributes["workbench.service_request_id"]).toBe(ref.requestId);
    } else expect(named.name).toBe("incident change");
  });
});
