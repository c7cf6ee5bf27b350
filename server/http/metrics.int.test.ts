// GET /api/metrics (docs/observability.md): after a token request, a /v1 call and the deliveries it
// caused, a scrape shows each metric with its label set and values that moved; in shared mode it
// needs a caller (a viewer's API token is enough).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScenario, type Scenario } from "../whole-chain/testing/scenario-fixture.ts";
import { startTestServer, type TestServer } from "../testing/test-server.ts";
import { createApiToken } from "../workbench/access/api-tokens.ts";

type Sample = { name: string; labels: Record<string, string>; value: number };
type Exposition = { types: Map<string, string>; samples: Sample[] };

/** The Prometheus text format (0.0.4): `# TYPE` lines and samples `name{a="x",b="y"} value`. */
function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("# HELP")) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!;
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return { types, samples };
}

/** The one sample of `name` whose labels include `labels` (0 when absent: a counter not yet touched). */
function valueOf(e: Exposition, name: string, labels: Record<string, string>): number {
  const found = e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

const labelSets = (e: Exposition, name: string) =>
  new Set(e.samples.filter((s) => s.name === name).map((s) => Object.keys(s.labels).sort().join(",")));

async function scrape(url: string, token?: string) {
  const res = await fetch(`${url}/api/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { res, text: await res.text() };
}

describe("/api/metrics on a local workbench", () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await startScenario();
  });
  afterAll(async () => {
    await s.close();
  });

  it("counts tokens, /v1 requests and deliveries, with bounded labels", async () => {
    const before = parseExposition((await scrape(s.server.url)).text);
    const token = await s.requestToken();
    const incidentId = await s.createIncident(token);
    await s.step(token, "POST", `/v1/incidents/${incidentId}/close`);
    await s.step(token, "GET", `/v1/incidents/${incidentId}/no-such-operation`, undefined, [404]);
    await s.settled(incidentId, "north-psap");
    const delivered = (await s.deliveries("north-psap", incidentId)).filter((d) => d.state === "delivered");
    expect(delivered.length).toBeGreaterThan(0);

    const { res, text } = await scrape(s.server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = parseExposition(text);
    expect(after.types).toEqual(
      new Map([
        ["workbench_delivery_attempts_total", "counter"],
        ["workbench_delivery_lag_seconds", "histogram"],
        ["workbench_tokens_issued_total", "counter"],
        ["http_server_request_duration_seconds", "histogram"],
        ["workbench_lane_backlog", "gauge"],
      ]),
    );
    const moved = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(moved("workbench_tokens_issued_total", { grant_type: "client_credentials" })).toBe(1);
    expect(labelSets(after, "workbench_tokens_issued_total")).toEqual(new Set(["grant_type"]));

    const httpLabels = "http_request_method,http_response_status_code,http_route";
    expect(labelSets(after, "http_server_request_duration_seconds_count")).toEqual(new Set([httpLabels]));
    expect(labelSets(after, "http_server_request_duration_seconds_bucket")).toEqual(new Set([`${httpLabels},le`]));
    const created = { http_request_method: "POST", http_route: "/v1/incidents", http_response_status_code: "201" };
    expect(moved("http_server_request_duration_seconds_count", created)).toBe(1);
    expect(moved("http_server_request_duration_seconds_bucket", { ...created, le: "+Inf" })).toBe(1);
    const issued = { http_request_method: "POST", http_route: "/connect/token", http_response_status_code: "200" };
    expect(moved("http_server_request_duration_seconds_count", issued)).toBe(1);
    const closed = { http_request_method: "POST", http_route: "/v1/incidents/{incidentId}/close" };
    expect(moved("http_server_request_duration_seconds_count", { ...closed, http_response_status_code: "200" })).toBe(
      1,
    );
    const unmatched = { http_request_method: "GET", http_route: "/v1/*", http_response_status_code: "404" };
    expect(moved("http_server_request_duration_seconds_count", unmatched)).toBe(1);
    // Routes are templates, never paths: no incident id (or any other id) in a label.
    const routes = after.samples.map((x) => x.labels.http_route).filter((r) => r !== undefined);
    expect(routes.some((r) => r.includes("{integration}") || r.includes("{key}"))).toBe(true);
    expect(routes.filter((r) => /[0-9a-f]{8}-[0-9a-f]{4}/.test(r))).toEqual([]);

    const north = { integration: "north-psap" };
    expect(moved("workbench_delivery_attempts_total", { ...north, status: "200" })).toBe(delivered.length);
    expect(labelSets(after, "workbench_delivery_attempts_total")).toEqual(new Set(["integration,status"]));
    expect(moved("workbench_delivery_lag_seconds_count", north)).toBe(delivered.length);
    const lag = moved("workbench_delivery_lag_seconds_sum", north);
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThan(60 * delivered.length);
    expect(labelSets(after, "workbench_delivery_lag_seconds_bucket")).toEqual(new Set(["integration,le"]));

    // Database-wide, every integration, 0 once its lanes are settled.
    expect(valueOf(after, "workbench_lane_backlog", north)).toBe(0);
    const integrations = await s.runtime.db.integration.findMany({ select: { key: true } });
    expect(after.samples.filter((x) => x.name === "workbench_lane_backlog").map((x) => x.labels.integration)).toEqual(
      integrations.map((i) => i.key).sort(),
    );
  });

  it("counts the events waiting per integration at scrape time", async () => {
    const pending = await s.runtime.db.webhookDelivery.findFirstOrThrow({ where: { integrationKey: "north-psap" } });
    const { id: _id, requestId: _requestId, ...copy } = pending;
    const before = valueOf(parseExposition((await scrape(s.server.url)).text), "workbench_lane_backlog", {
      integration: "north-psap",
    });
    await s.runtime.db.webhookDelivery.create({
      data: {
        ...copy,
        body: copy.body ?? undefined,
        requestId: crypto.randomUUID(),
        state: "pending",
        nextAttemptAt: new Date(s.runtime.clock.nowMs() + 3_600_000),
        finishedAt: null,
      },
    });
    const after = parseExposition((await scrape(s.server.url)).text);
    expect(valueOf(after, "workbench_lane_backlog", { integration: "north-psap" })).toBe(before + 1);
  });

  it("answers GET and HEAD only", async () => {
    const res = await fetch(`${s.server.url}/api/metrics`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("/api/metrics on a shared workbench", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      dashboard: true,
      env: { WORKBENCH_ACCESS: "shared", WORKBENCH_ADMIN_PASSWORD: "admin-password-for-tests" },
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it("refuses a scrape without a caller or with a wrong token, in the workbench API's error shape", async () => {
    for (const token of [undefined, "wbt_wrong"]) {
      const { res, text } = await scrape(s.url, token);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(JSON.parse(text)).toEqual({ error: "unauthorized", error_description: expect.any(String) });
    }
  });

  it("answers a viewer's API token", async () => {
    const viewer = await createApiToken({
      ...s.runtime,
      input: { name: "scraper", role: "viewer" },
      createdBy: "test",
    });
    const { res, text } = await scrape(s.url, viewer.token);
    expect(res.status).toBe(200);
    expect(parseExposition(text).types.get("workbench_lane_backlog")).toBe("gauge");
  });
});
