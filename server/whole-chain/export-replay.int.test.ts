// Exports for bug reports (docs/webhooks.md, Delivery exports): an incident's deliveries as one
// self-contained file, and that recorded sequence sent again to another
// receiver, in order, as new requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setReceiverFault } from "../reference-receiver/integration-faults.ts";
import { exportDeliveries } from "../webhooks/admin/export-deliveries.ts";
import { replayDeliveries, type TReplayDeliveriesInput } from "../webhooks/admin/replay-deliveries.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
let incidentId: string;
beforeAll(async () => {
  s = await startScenario();
  const north = await s.requestToken();
  incidentId = await s.createIncident(north, { label: "exported" });
  await s.step(north, "PATCH", `/v1/incidents/${incidentId}/label`, { label: "exported, then changed" });
  await s.settled(incidentId);
});
afterAll(async () => {
  await s?.close();
});

const exportOf = (input: Parameters<typeof exportDeliveries>[0]["input"]) =>
  exportDeliveries({ db: s.runtime.db, publicUrl: s.runtime.env.PUBLIC_URL, now: s.runtime.clock.now(), input });

/** The export's requests as the replay takes them (the CLI reads them from the file the same way). */
const requestsOf = (file: Awaited<ReturnType<typeof exportOf>>) =>
  file.deliveries.map(({ method, path, body }) => ({ method, path, body })) as TReplayDeliveriesInput["deliveries"];

describe("a delivery export", () => {
  it("holds an incident's deliveries in lane order, each with its request, every attempt's response and timing", async () => {
    const file = await exportOf({ incidentId, integration: "north-psap" });
    const rows = await s.deliveries("north-psap", incidentId);
    expect(file).toMatchObject({
      format: "incident-platform-workbench/delivery-export",
      version: 1,
      source: { workbench: s.runtime.env.PUBLIC_URL },
      selection: { incidentId, integration: "north-psap" },
      truncated: false,
    });
    expect(file.deliveries.map((d) => d.requestId)).toEqual(rows.map((r) => r.requestId));
    expect(file.deliveries.map((d) => `${d.method} ${d.path}`)).toContain(`PATCH /v3/incidents/${incidentId}/label`);
    const label = file.deliveries.find((d) => d.path.endsWith("/label"))!;
    expect(label.body).toMatchObject({ label: "exported, then changed" });
    expect(Date.parse(label.expiresAt) - Date.parse(label.producedAt)).toBe(3_600_000);
    const [attempt] = label.attempts;
    expect(attempt).toMatchObject({ attempt: 1, status: 200, error: null });
    expect(attempt!.url).toBe(`${s.runtime.env.PUBLIC_URL}/receivers/north-psap/v3/incidents/${incidentId}/label`);
    expect(attempt!.requestHeaders).toMatchObject({
      authorization: "Bearer [redacted]",
      "service-request-id": label.requestId,
      "service-request-timestamp": label.producedAt,
    });
    expect(attempt!.responseHeaders).toBeTypeOf("object");
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(0);
    // Nothing in the file is a usable token.
    expect(JSON.stringify(file)).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });

  it("holds one delivery by its Service-Request-Id, and says which was not found", async () => {
    const [first] = await s.deliveries("north-psap", incidentId);
    const file = await exportOf({ requestId: first!.requestId });
    expect(file.deliveries.map((d) => d.requestId)).toEqual([first!.requestId]);
    await expect(exportOf({ requestId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({
      code: "DeliveryNotFound",
      status: 404,
    });
    await expect(exportOf({ incidentId, integration: "no-such-integration" })).rejects.toMatchObject({
      code: "DeliveryNotFound",
    });
    await expect(exportOf({ requestId: "not-a-uuid" })).rejects.toThrow();
  });
});

describe("replaying an export to another receiver", () => {
  it("sends the recorded requests in order, as new requests, and the receiver records each", async () => {
    const file = await exportOf({ incidentId, integration: "north-psap" });
    const result = await replayDeliveries({
      runtime: s.runtime,
      input: { integration: "central-ems", deliveries: requestsOf(file) },
    });
    expect(result).toMatchObject({
      integration: "central-ems",
      requested: file.deliveries.length,
      sent: file.deliveries.length,
      accepted: file.deliveries.length,
    });
    expect(result.steps.map((st) => [st.method, st.path, st.status])).toEqual(
      file.deliveries.map((d) => [d.method, d.path, 200]),
    );
    await s.settled(incidentId, "central-ems");
    const recorded = await s.records("central-ems", incidentId);
    const replayed = recorded.filter((r) => result.steps.some((st) => st.requestId === r.serviceRequestId));
    expect(replayed.map((r) => `${r.method} ${r.path}`)).toEqual(file.deliveries.map((d) => `${d.method} ${d.path}`));
    // New Service-Request-Ids: the receiver's deduplication does not swallow a replay.
    expect(result.steps.some((st) => file.deliveries.some((d) => d.requestId === st.requestId))).toBe(false);
    expect(replayed.every((r) => r.outcome === "accepted")).toBe(true);
  });

  it("stops at the first request not answered 200, unless asked to keep going", async () => {
    const file = await exportOf({ incidentId, integration: "north-psap" });
    await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "central-ems", mode: "http-503" });
    try {
      const stopped = await replayDeliveries({
        runtime: s.runtime,
        input: { integration: "central-ems", deliveries: requestsOf(file) },
      });
      expect(stopped).toMatchObject({ sent: 1, accepted: 0 });
      expect(stopped.steps[0]).toMatchObject({ status: 503, error: "HTTP 503: only 200 accepts a delivery" });
      const all = await replayDeliveries({
        runtime: s.runtime,
        input: { integration: "central-ems", deliveries: requestsOf(file), keepGoing: true },
      });
      expect(all).toMatchObject({ sent: file.deliveries.length, accepted: 0 });
    } finally {
      await setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key: "central-ems", mode: "ok" });
    }
  });

  it("refuses an unknown integration, a path outside the event routes and an empty sequence", async () => {
    const one = [{ method: "PATCH" as const, path: `/v3/incidents/${incidentId}/label`, body: { label: "x" } }];
    await expect(
      replayDeliveries({ runtime: s.runtime, input: { integration: "nobody", deliveries: one } }),
    ).rejects.toMatchObject({ code: "IntegrationNotFound", status: 404 });
    await expect(
      replayDeliveries({
        runtime: s.runtime,
        input: { integration: "central-ems", deliveries: [{ ...one[0]!, path: "/../../connect/token" }] },
      }),
    ).rejects.toThrow(/path below \{receiver_url\}/);
    await expect(
      replayDeliveries({
        runtime: s.runtime,
        input: { integration: "central-ems", deliveries: [{ ...one[0]!, path: "/v3/../../../connect/token" }] },
      }),
    ).rejects.toThrow(/without \. or \.\. segments/);
    await expect(
      replayDeliveries({ runtime: s.runtime, input: { integration: "central-ems", deliveries: [] } }),
    ).rejects.toThrow();
  });
});
