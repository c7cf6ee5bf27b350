// Scenarios 3 and 4 (an outage stalls only the affected
// incidents, keeps order and recovers; duplicates are recorded once; 201 from a
// faulty receiver counts as failure). Spec, Delivery rules 1–4. Time moves on
// the workbench clock (`workbench clock advance`), never by sleeping.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { setReceiverFault } from "../reference-receiver/integration-faults.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { advanceClock } from "../workbench/clock-control.ts";
import { recordAttempts, waitForEvents } from "../webhooks/testing/webhook-harness.ts";
import { AGENCY, startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
let north: string;
let ems: string;
beforeAll(async () => {
  s = await startScenario();
  north = await s.requestToken();
  ems = await s.requestToken({ agencyId: AGENCY.centralEms, username: "dispatcher.ems" });
});
afterAll(async () => {
  await s?.close();
});

const fault = (key: string, mode: string) => setReceiverFault({ db: s.runtime.db, clock: s.runtime.clock, key, mode });
const advance = (ms: number) => advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: ms });
const recordAttemptsOn = (incidentId: string) => recordAttempts({ incidentId, advance });

describe("an outage of north-psap's receiver (http-503)", () => {
  it("stalls only north-psap's lanes, keeps order, backs off 1 s, 2 s, 4 s with one Service-Request-Id, and recovers in order", async () => {
    const a = await s.createIncident(north, { label: "before the outage" });
    await s.settled(a);
    await fault("north-psap", "http-503");

    const attempts = recordAttemptsOn(a);
    onTestFinished(attempts.stop);
    await s.step(north, "PATCH", `/v1/incidents/${a}/label`, { label: "during the outage" });
    await s.step(north, "PATCH", `/v1/incidents/${a}/summary`, { summary: "queued behind the label" });
    await attempts.reach(1);
    const first = attempts.seen[0]!;
    expect([first.status, first.error]).toEqual([503, "HTTP 503: only 200 accepts a delivery"]);

    // Another integration's incident is unaffected while north-psap is down.
    const b = await s.createIncident(ems, { label: "elsewhere" });
    await s.step(ems, "PATCH", `/v1/incidents/${b}/summary`, { summary: "flows" });
    await s.settled(b, "central-ems");
    expect((await s.deliveries("central-ems", b)).map((d) => [d.state, d.attemptCount])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
    ]);

    // Backoff: 1 s after the failure, then 2 s, then 4 s (Delivery rule 2), on the workbench clock.
    for (const [n, delay] of [1_000, 2_000, 4_000].entries()) await attempts.retryAfter(n + 1, delay);
    const stalled = await s.deliveries("north-psap", a);
    const head = stalled[1]!;
    // Each retry is scheduled exactly its delay after the failed attempt ended (deliver-event.ts).
    const gaps = attempts.seen.slice(0, 3).map((e) => {
      const recorded = head.attempts.find((x) => x.attempt === e.attempt)!;
      return e.retryAt!.getTime() - recorded.startedAt.getTime() - recorded.durationMs;
    });
    expect(gaps).toEqual([1_000, 2_000, 4_000]);
    expect(stalled.map((d) => [d.eventName, d.state, d.attemptCount])).toEqual([
      ["created", "delivered", 1],
      ["IncidentLabelChanged", "pending", attempts.seen.length],
      ["summary", "pending", 0],
    ]);
    expect(attempts.seen.length).toBeGreaterThanOrEqual(4);
    // Every retry carried the head's Service-Request-Id (the receiver recorded each faulted attempt).
    const faulted = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "north-psap", outcome: "fault" },
      orderBy: { id: "asc" },
    });
    expect(faulted.map((r) => [r.serviceRequestId, r.status])).toEqual(
      Array(head.attemptCount).fill([head.requestId, 503]),
    );

    // The fault clears; the next retry (8 s) delivers the head, then the summary, in order.
    await fault("north-psap", "ok");
    const delivered = waitForEvents("delivery:delivered", 2, (e) => e.incidentId === a);
    await advance(8_000);
    await delivered;
    await s.settled(a, "north-psap");
    const accepted = (await s.records("north-psap", a)).filter((r) => r.outcome === "accepted");
    expect(accepted.map((r) => r.route)).toEqual(["created", "labelChanged", "summaryChanged"]);
    expect(accepted.map((r) => r.serviceRequestId)).toEqual(stalled.map((d) => d.requestId));
    expect(accepted.flatMap((r) => r.anomalies)).toEqual([]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", a);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
  });
});

describe("a receiver answering 201 (fault http-201)", () => {
  it("is a failed delivery: retried under the same Service-Request-Id, recorded once with the duplicates counted, applied once", async () => {
    const a = await s.createIncident(north);
    await s.settled(a);
    await fault("north-psap", "http-201");
    const attempts = recordAttemptsOn(a);
    onTestFinished(attempts.stop);
    await s.step(north, "PATCH", `/v1/incidents/${a}/call-sign`, { callSign: "AMB-7" });
    await attempts.reach(1);
    expect([attempts.seen[0]!.status, attempts.seen[0]!.error]).toEqual([201, "HTTP 201: only 200 accepts a delivery"]);
    await attempts.retryAfter(1, 1_000);
    expect(attempts.seen[1]!.status).toBe(201);

    await fault("north-psap", "ok");
    const delivered = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === a);
    await advance(2_000);
    await delivered;
    await s.settled(a, "north-psap");
    const [, callSign] = await s.deliveries("north-psap", a);
    // Answered 201 until the fault cleared (twice, or more where real time brought a retry first), then 200.
    const statuses = callSign!.attempts.map((x) => x.status);
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    expect([callSign!.state, statuses]).toEqual(["delivered", [...Array(statuses.length - 1).fill(201), 200]]);
    // One record for every delivery of one Service-Request-Id: the first (answered 201) kept, the others counted.
    const records = await s.runtime.db.receiverRecord.findMany({ where: { serviceRequestId: callSign!.requestId } });
    expect(records.map((r) => [r.route, r.duplicates, r.status])).toEqual([
      ["callSignChanged", statuses.length - 1, 201],
    ]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", a);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    expect((await s.records("north-psap", a)).flatMap((r) => r.anomalies)).toEqual([]);
  });
});
