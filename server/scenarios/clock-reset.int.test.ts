// The workbench clock goes back (`workbench clock reset`) after a jump ahead —
// the usual end of an expiry demonstration. Deliveries must go on at once:
// nothing minted or scheduled at the advanced time may hold the chain up for
// the hour real time needs to catch up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceClock, resetClock } from "../workbench/clock-control.ts";
import { startScenario, type Scenario } from "./testing/scenario-fixture.ts";

let s: Scenario;
beforeAll(async () => { s = await startScenario(); });
afterAll(async () => { await s?.close(); });

describe("clock reset after a jump", () => {
  it("the next event is delivered at the first attempt (the Publisher token minted at the advanced time is not reused)", async () => {
    const id = await s.createIncident(await s.requestToken());
    await s.settled(id);
    await advanceClock({ db: s.runtime.db, clock: s.runtime.clock, byMs: 61 * 60_000 });
    await s.step(await s.requestToken(), "PATCH", `/v1/incidents/${id}/label`, { label: "in the future" });
    await s.settled(id);
    await resetClock({ db: s.runtime.db, clock: s.runtime.clock });
    await s.step(await s.requestToken(), "PATCH", `/v1/incidents/${id}/summary`, { summary: "back to now" });
    await s.settled(id);
    const rows = await s.deliveries("north-psap", id);
    expect(rows.map((d) => [d.eventName, d.state, d.attempts.map((a) => a.status)])).toEqual([
      ["created", "delivered", [200]], ["label", "delivered", [200]], ["summary", "delivered", [200]],
    ]);
  });

  // Not fixed here (a design decision for the lead): retries scheduled while the clock was ahead keep
  // their advanced nextAttemptAt, so after a reset a lane stalled during the jump waits up to the jump's
  // length in real time. Shifting them must happen once per reset (in clock-control, not in each
  // worker's `changed` listener, which every process runs) and must keep producedAt (the
  // Service-Request-Timestamp retries keep).
  it.todo("a lane whose retry was scheduled during a jump ahead resumes soon after `clock reset`, not a jump's length later");
});
