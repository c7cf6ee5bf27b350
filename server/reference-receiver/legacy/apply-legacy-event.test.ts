// The v2 replica built only from the v2 deliveries of the golden history ends
// equal to the platform's incident rendered as v2: nothing lost, nothing doubled.
import { describe, expect, it } from "vitest";
import { goldenHistory, sequentialIds } from "../../webhook-contracts/testing/golden-history.ts";
import { renderIncidentV2 } from "../../webhook-contracts/v2/render-incident.ts";
import { NEW_LANE, type LaneState } from "../../webhooks/planning/plan-events.ts";
import { planLegacyEvents } from "../../webhooks/planning/plan-legacy-events.ts";
import { applyLegacyEvent, type LegacyReplica } from "./apply-legacy-event.ts";

function deliveries() {
  let lane: LaneState = NEW_LANE;
  const newId = sequentialIds();
  return goldenHistory().flatMap((change) => {
    const plan = planLegacyEvents({ change, lane, major: 2, newId });
    lane = plan.lane;
    return plan.events;
  });
}

describe("applyLegacyEvent", () => {
  it("rebuilds the incident from the v2 history without anomalies", () => {
    let replica: LegacyReplica | null = null;
    for (const e of deliveries()) {
      const applied = applyLegacyEvent(replica, { key: e.route, body: e.body });
      expect(applied.anomalies, `${e.method} ${e.path}`).toEqual([]);
      replica = applied.replica;
    }
    const last = goldenHistory().at(-1)!;
    expect(replica!.snapshot).toEqual(renderIncidentV2(last.snapshot, last.producedAt));
    expect(replica!.closedAtUtc).toBe("2026-11-22T06:09:00.000Z");
  });

  it("flags an append to a track never received in full, an unknown incident, a change after close and a bad body", () => {
    const events = deliveries();
    const append = events.find((e) => e.route === "positionAppended")!;
    expect(applyLegacyEvent(null, { key: "positionAppended", body: append.body }).anomalies).toEqual([
      "unknown-incident",
    ]);
    const created = applyLegacyEvent(null, { key: "incident", body: events[0]!.body }).replica!;
    expect(
      applyLegacyEvent({ ...created, fullSources: [] }, { key: "positionAppended", body: append.body }).anomalies,
    ).toEqual(["hole:MobileApp"]);
    const battery = {
      requestId: append.requestId,
      requestTimeStampUtc: append.body.requestTimeStampUtc,
      batteryLevel: 3,
    };
    expect(
      applyLegacyEvent({ ...created, closedAtUtc: "2026-11-22T06:09:00.000Z" }, { key: "batteryLevel", body: battery })
        .anomalies,
    ).toEqual(["after-close:batteryLevel"]);
    expect(
      applyLegacyEvent(created, { key: "close", body: { closedTimeUtc: "2026-11-22T06:09:00.000Z" } }).anomalies,
    ).toEqual(["missing-key:requestId", "missing-key:requestTimeStampUtc"]);
  });
});
