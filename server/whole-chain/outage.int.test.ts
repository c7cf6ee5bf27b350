// Scenarios 3 and 4 (an outage stalls only the affected
// incidents, keeps order and recovers; duplicates are recorded once; 201 from a
// faulty receiver counts as failure). Spec, Delivery rules 1–4. Time moves on
// the workbench clock (`workbench clock advance`), never by sleeping.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setReceiverFault } from "../reference-receiver/integration-faults.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { advanceClock } from "../workbench/clock-control.ts";
import { waitForEvents } from "../webhooks/testing/webhook-harness.ts";
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
const attemptedOn = (incidentId: string, count = 1) =>
  waitForEvents("delivery:attempted", count, (e) => e.incidentId === incidentId);

/** How long after its failed attempt ended a delivery's next attempt was scheduled. */
function gapAfter(d: { nextAttemptAt: Date }, a: { startedAt: Date; durationMs: number }) {
  return d.nextAttemptAt.getTime() - a.startedAt.getTime() - a.durationMs;
}

describe("an outage of north-psap's receiver (http-503)", () => {
  it("stalls only north-psap's lanes, keeps order, backs off 1 s, 2 s, 4 s with one Service-Request-Id, and recovers in order", async () => {
    const a = await s.createIncident(north, { label: "before the outage" });
    await s.settled(a);
    await fault("north-psap", "http-503");

    let attempted = attemptedOn(a);
    await s.step(north, "PATCH", `/v1/incidents/${a}/label`, { label: "during the outage" });
    await s.step(north, "PATCH", `/v1/incidents/${a}/summary`, { summary: "queued behind the label" });
    const first = (await attempted)[0]![0];
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
    const head = async () => (await s.deliveries("north-psap", a)).find((d) => d.eventName === "IncidentLabelChanged")!;
    const gaps: number[] = [];
    for (const step of [1_000, 2_000, 4_000]) {
      const row = await head();
      gaps.push(gapAfter(row, row.attempts.at(-1)!));
      attempted = attemptedOn(a);
      await advance(step);
      await attempted;
    }
    // Each retry is scheduled exactly its delay after the failed attempt ended (deliver-event.ts).
    expect(gaps).toEqual([1_000, 2_000, 4_000]);
    const stalled = await s.deliveries("north-psap", a);
    expect(stalled.map((d) => [d.eventName, d.state, d.attemptCount])).toEqual([
      ["created", "delivered", 1],
      ["IncidentLabelChanged", "pending", 4],
      ["summary", "pending", 0],
    ]);
    // Every retry carried the head's Service-Request-Id (the receiver recorded each faulted attempt).
    const faulted = await s.runtime.db.receiverRecord.findMany({
      where: { integrationKey: "north-psap", outcome: "fault" },
      orderBy: { id: "asc" },
    });
    expect(faulted.map((r) => [r.serviceRequestId, r.status])).toEqual(Array(4).fill([stalled[1]!.requestId, 503]));

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
    let attempted = attemptedOn(a);
    await s.step(north, "PATCH", `/v1/incidents/${a}/call-sign`, { callSign: "AMB-7" });
    const first = (await attempted)[0]![0];
    expect([first.status, first.error]).toEqual([201, "HTTP 201: only 200 accepts a delivery"]);
    attempted = attemptedOn(a);
    await advance(1_000);
    expect((await attempted)[0]![0].status).toBe(201);

    await fault("north-psap", "ok");
    const delivered = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === a);
    await advance(2_000);
    await delivered;
    await s.settled(a, "north-psap");
    const [, callSign] = await s.deliveries("north-psap", a);
    expect([callSign!.state, callSign!.attempts.map((x) => x.status)]).toEqual(["delivered", [201, 201, 200]]);
    // One record for three deliveries of one Service-Request-Id: the first (answered 201) kept, two duplicates counted.
    const records = await s.runtime.db.receiverRecord.findMany({ where: { serviceRequestId: callSign!.requestId } });
    expect(records.map((r) => [r.route, r.duplicates, r.status])).toEqual([["callSignChanged", 2, 201]]);
    const { replica, platform } = await s.replicaAndPlatform("north-psap", a);
    expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
    expect((await s.records("north-psap", a)).flatMap((r) => r.anomalies)).toEqual([]);
  });
});
