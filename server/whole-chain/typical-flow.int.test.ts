// Scenario 1 (spec, Inbound API rule 6 "Typical flow"; the replica matches the
// platform snapshot after every scenario without faults):
// a partner takes a token, reports a call, creates an incident, maintains it,
// tracks the caller and closes it; north-psap's embedded receiver gets every
// event in order, exactly once, and ends with the platform's snapshot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
beforeAll(async () => {
  s = await startScenario();
});
afterAll(async () => {
  await s?.close();
});

describe("typical flow, end to end", () => {
  it("token → call → incident → PATCHes → track → reach caller → close reaches north-psap in order; replica = platform snapshot, no anomalies", async () => {
    const token = await s.requestToken();
    const callRes = await s.step(token, "POST", "/v1/calls", {
      callerPhoneNumber: "+4795512345",
      startedAtUtc: s.runtime.clock.now().toISOString(),
    });
    const incidentId = await s.createIncident(token, { callId: callRes.body.callId, label: "Fall at home" });
    const base = `/v1/incidents/${incidentId}`;
    await s.step(token, "PATCH", `${base}/summary`, { summary: "Woman, 80, fell on stairs" });
    await s.step(token, "PATCH", `${base}/call-sign`, { callSign: "AMB-12" });
    await s.step(token, "PATCH", `${base}/caller/full-name`, { fullName: "Kari Nordmann" });
    await s.step(token, "PATCH", `${base}/patient/description`, { description: "Hip pain" });
    await s.step(token, "PATCH", `${base}/label`, { label: null });
    await s.step(token, "POST", `${base}/caller/track`, { latitude: 59.96, longitude: 10.75 });
    await s.step(token, "POST", `${base}/caller/track`, { latitude: 59.961, longitude: 10.751 });
    await s.step(token, "POST", `${base}/caller/chat/activate`);
    await s.step(token, "POST", `${base}/caller/live-video/activate`);
    await s.step(token, "POST", `${base}/close`);
    await s.settled(incidentId);

    // The engine's plan for the default receiver (every flag declared; caller.changed supersedes
    // the full-name PATCH, rule 3; the first Entered location arrives as a whole track, rule 5).
    const deliveries = await s.deliveries("north-psap", incidentId);
    expect(deliveries.map((d) => `${d.method} ${d.path.replace(incidentId, "{id}")}`)).toEqual([
      "POST /v3/incidents",
      "PATCH /v3/incidents/{id}/summary",
      "PATCH /v3/incidents/{id}/call-sign",
      "PUT /v3/incidents/{id}/caller",
      "PATCH /v3/incidents/{id}/patient/description",
      "PATCH /v3/incidents/{id}/label",
      "PUT /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/track",
      "POST /v3/incidents/{id}/caller/chat/activated",
      "POST /v3/incidents/{id}/caller/live-video/activated",
      // Closing ends the live video first (a closed incident has no running video).
      "POST /v3/incidents/{id}/caller/live-video/ended",
      "POST /v3/incidents/{id}/closed",
    ]);
    expect(deliveries.every((d) => d.state === "delivered" && d.attemptCount === 1)).toBe(true);

    // The receiver recorded them in the same order, each once, under the engine's Service-Request-Ids.
    const records = await s.records("north-psap", incidentId);
    expect(records.map((r) => r.serviceRequestId)).toEqual(deliveries.map((d) => d.requestId));
    expect(records.map((r) => [r.outcome, r.status, r.duplicates])).toEqual(deliveries.map(() => ["accepted", 200, 0]));
    expect(records.map((r) => r.requestTimestamp)).toEqual(deliveries.map((d) => d.producedAt.toISOString()));
    expect(records.flatMap((r) => r.anomalies)).toEqual([]);

    const { replica, platform } = await s.replicaAndPlatform("north-psap", incidentId);
    expect(replica).not.toBeNull();
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    expect(replica!.closedAtUtc).not.toBeNull();
    expect(replica!.snapshot).toMatchObject({
      label: null,
      summary: "Woman, 80, fell on stairs",
      callSign: "AMB-12",
      caller: { fullName: "Kari Nordmann" },
    });
    // Nobody else is involved: no other receiver heard of it.
    expect(
      await s.runtime.db.receiverRecord.count({ where: { incidentId, integrationKey: { not: "north-psap" } } }),
    ).toBe(0);
  });
});
