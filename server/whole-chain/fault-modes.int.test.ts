// The other ways a receiver breaks (docs/receivers.md, Faults: receiver faults, and
// network faults on the dispatcher side), each seen by the engine as a failed
// attempt that is retried (Delivery rules 1–2) until the fault ends; the
// replica ends equal to the platform snapshot. Time moves on the workbench clock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setReceiverFault } from "../reference-receiver/integration-faults.ts";
import { setDispatcherNetworkFault } from "../webhooks/admin/set-dispatcher-fault.ts";
import { diffReplica } from "../reference-receiver/diff-replica.ts";
import { advanceClock } from "../workbench/clock-control.ts";
import { waitForEvents } from "../webhooks/testing/webhook-harness.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
let token: string;
beforeAll(async () => {
  s = await startScenario();
  token = await s.requestToken();
});
afterAll(async () => {
  await s?.close();
});

const ctl = () => ({ db: s.runtime.db, clock: s.runtime.clock, key: "north-psap" });
const advance = (ms: number) => advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: ms });

/** Creates an incident, breaks the chain with `breakIt`, PATCHes the label, returns the first failed attempt; then repairs and checks recovery. */
async function failThenRecover(breakIt: () => Promise<unknown>, repair: () => Promise<unknown>, retryAfterMs = 1_000) {
  const id = await s.createIncident(token);
  await s.settled(id);
  await breakIt();
  const attempted = waitForEvents("delivery:attempted", 1, (e) => e.incidentId === id);
  await s.step(token, "PATCH", `/v1/incidents/${id}/label`, { label: "after the fault" });
  const failed = (await attempted)[0]![0];
  await repair();
  const delivered = waitForEvents("delivery:delivered", 1, (e) => e.incidentId === id);
  await advance(retryAfterMs);
  expect((await delivered)[0]![0].requestId).toBe(failed.requestId);
  await s.settled(id);
  const { replica, platform } = await s.replicaAndPlatform("north-psap", id);
  expect(diffReplica(replica!.snapshot, platform)).toEqual([]);
  return { id, failed };
}

describe("receiver and network faults", () => {
  it("reject-token: 401 is a failure; the refusal is recorded without the body, and the retry is accepted", async () => {
    const { failed } = await failThenRecover(
      () => setReceiverFault({ ...ctl(), mode: "reject-token" }),
      () => setReceiverFault({ ...ctl(), mode: "ok" }),
    );
    expect(failed.status).toBe(401);
    const rows = await s.runtime.db.receiverRecord.findMany({
      where: { serviceRequestId: failed.requestId },
      orderBy: { id: "asc" },
    });
    expect(rows.map((r) => [r.outcome, r.status, r.body])).toEqual([
      ["rejected-token", 401, null],
      ["accepted", 200, { label: "after the fault" }],
    ]);
  });

  it("down: the connection ends without an answer; nothing is recorded until the host is back", async () => {
    const { failed } = await failThenRecover(
      () => setReceiverFault({ ...ctl(), mode: "down" }),
      () => setReceiverFault({ ...ctl(), mode: "ok" }),
    );
    expect(failed.status).toBeNull();
    expect(failed.error).toMatch(/ECONNRESET|socket hang up/);
    expect(await s.runtime.db.receiverRecord.count({ where: { serviceRequestId: failed.requestId } })).toBe(1);
  });

  it("a fault with a duration (--for 1s) ends on the workbench clock without being cleared", async () => {
    const { failed } = await failThenRecover(
      () => setReceiverFault({ ...ctl(), mode: "http-500", for: "1s" }),
      async () => {},
    );
    expect(failed.status).toBe(500);
  });

  it("dispatcher-side network faults (refused, timeout) fail the attempt without reaching the receiver", async () => {
    const refused = await failThenRecover(
      () => setDispatcherNetworkFault({ ...ctl(), mode: "refused" }),
      () => setDispatcherNetworkFault({ ...ctl(), mode: "ok" }),
    );
    expect([refused.failed.status, refused.failed.error]).toEqual([null, expect.stringMatching(/^ECONNREFUSED/)]);
    const timedOut = await failThenRecover(
      () => setDispatcherNetworkFault({ ...ctl(), mode: "timeout" }),
      () => setDispatcherNetworkFault({ ...ctl(), mode: "ok" }),
    );
    expect(timedOut.failed.error).toMatch(/^timeout/);
    for (const { failed } of [refused, timedOut]) {
      // The receiver saw only the successful retry.
      expect(
        (await s.runtime.db.receiverRecord.findMany({ where: { serviceRequestId: failed.requestId } })).map(
          (r) => r.outcome,
        ),
      ).toEqual(["accepted"]);
    }
  });
});
