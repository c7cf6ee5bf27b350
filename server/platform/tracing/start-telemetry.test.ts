// The SDK is loaded only when configured, and the protobuf protocol (the default) exports: a real
// OTLP/HTTP request to a local server, whose bytes carry the span (protobuf strings are UTF-8).
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { parseEnv } from "../env.ts";
import { startTelemetry, type Telemetry } from "./start-telemetry.ts";
import { activeTracing, traceIdOf } from "./tracing.ts";

const loadedOtel = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("@opentelemetry"));
const logger = createLogger({ level: "silent" });
let telemetry: Telemetry | undefined;
let server: http.Server | undefined;
afterAll(async () => {
  await telemetry?.stop();
  server?.closeAllConnections();
  server?.close();
});

describe("startTelemetry", () => {
  it("without an OTLP endpoint: starts nothing, loads no OpenTelemetry package, the facade stays null", async () => {
    const off = await startTelemetry(parseEnv({}).TELEMETRY, { logger, metrics: async () => [] });
    await off.stop();
    expect(activeTracing()).toBeNull();
    expect(loadedOtel()).toBe(false);
  });

  it("with one (http/protobuf): spans go out as protobuf to {endpoint}/v1/traces", async () => {
    const received: Array<{ url: string; type: string; body: Buffer }> = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({ url: req.url ?? "", type: req.headers["content-type"] ?? "", body: Buffer.concat(chunks) });
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_METRICS_EXPORTER: "none" }).TELEMETRY;
    telemetry = await startTelemetry(config, { logger });
    expect(loadedOtel()).toBe(true);
    const tracing = activeTracing()!;
    const span = tracing.startSpan("protobuf-probe-span", { kind: "internal", attributes: { probe: "yes" } });
    expect(traceIdOf(span.traceparent)).toBe(span.traceId);
    const child = tracing.startSpan("child", { kind: "client", parent: span.context });
    expect(child.traceId).toBe(span.traceId);
    expect(tracing.fromTraceparent(child.traceparent)).toBeDefined();
    child.end();
    span.end();
    await telemetry.flush();
    const traces = received.filter((r) => r.url === "/v1/traces");
    expect(traces.map((r) => r.type)).toEqual(["application/x-protobuf"]);
    expect(traces[0]!.body.includes("protobuf-probe-span")).toBe(true);
    expect(traces[0]!.body.includes(Buffer.from(span.traceId, "hex"))).toBe(true);
  });
});

describe("traceIdOf", () => {
  it("reads a W3C traceparent's trace id; anything else is null", () => {
    expect(traceIdOf("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toBe(
      "4bf92f3577b34da6a3ce929d0e0e4736",
    );
    expect(traceIdOf("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeNull();
    expect(traceIdOf("00-4bf92f35-00f067aa0ba902b7-01")).toBeNull();
    expect(traceIdOf(null)).toBeNull();
  });
});
