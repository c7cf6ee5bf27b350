// Golden tests: the same incident history rendered as v1, v2 and v3 events
// (route + body), each body validated against its contract's schema, and the
// whole rendering compared with the reviewed golden file beside this test
// (regenerate deliberately with `npx vitest run -u`, then read the diff).
import { describe, expect, it } from "vitest";
import { V3_FLAGS, type V3Flag } from "../v3/capability-flags.ts";
import { V3_EVENT_BODIES } from "../v3/routes.ts";
import { LEGACY_EVENT_BODIES } from "../v2/event-bodies.schema.ts";
import { NEW_LANE, planEvents, type LaneState } from "../../webhooks/planning/plan-events.ts";
import { planLegacyEvents } from "../../webhooks/planning/plan-legacy-events.ts";
import { goldenHistory, sequentialIds } from "./golden-history.ts";

type Rendered = Array<{ seq: number; change: string; events: Array<{ operation: string; body: unknown }> }>;

/** The specific shape (every flag but caller.changed) by default; `composed`: every flag (PUT caller, rule 3). */
function renderV3(shape: "specific" | "composed" = "specific"): Rendered {
  let lane: LaneState = NEW_LANE;
  const flags = new Set<V3Flag>(shape === "composed" ? V3_FLAGS : V3_FLAGS.filter((f) => f !== "caller.changed"));
  return goldenHistory().map((change) => {
    const plan = planEvents({ change, flags, lane });
    lane = plan.lane;
    for (const e of plan.events)
      expect(() => V3_EVENT_BODIES[e.route].parse(e.body), `${e.method} ${e.path}`).not.toThrow();
    return {
      seq: change.seq,
      change: change.kind,
      events: plan.events.map((e) => ({ operation: `${e.method} ${e.path}`, body: e.body })),
    };
  });
}

function renderLegacy(major: 1 | 2): Rendered {
  let lane: LaneState = NEW_LANE;
  const newId = sequentialIds();
  return goldenHistory().map((change) => {
    const plan = planLegacyEvents({ change, lane, major, newId });
    lane = plan.lane;
    for (const e of plan.events) {
      expect(() => LEGACY_EVENT_BODIES[e.route].parse(e.body), `${e.method} ${e.path}`).not.toThrow();
      expect(e.body.requestId).toBe(e.requestId);
      expect(e.body.requestTimeStampUtc).toBe(change.producedAt.toISOString());
    }
    return {
      seq: change.seq,
      change: change.kind,
      events: plan.events.map((e) => ({ operation: `${e.method} ${e.path}`, body: e.body })),
    };
  });
}

const operations = (r: Rendered) =>
  r.map((s) => [s.change, s.events.map((e) => e.operation.replace(/[0-9a-f-]{36}/, "{id}"))]);

describe("golden: one incident history as v1, v2 and v3 events", () => {
  it("v3", async () => {
    await expect(JSON.stringify(renderV3(), null, 2)).toMatchFileSnapshot("./golden/history.v3.json");
  });

  it("v3, composed shape: PUT caller carries the snapshot's caller object itself, not wrapped", async () => {
    const v3 = renderV3("composed");
    const history = goldenHistory();
    const puts = v3.flatMap((s) =>
      s.events
        .filter((e) => e.operation.startsWith("PUT ") && e.operation.endsWith("/caller"))
        .map((e) => ({ seq: s.seq, body: e.body })),
    );
    expect(puts.length).toBeGreaterThan(0);
    for (const put of puts) expect(put.body).toEqual(history.find((c) => c.seq === put.seq)!.snapshot.caller);
    await expect(JSON.stringify(v3, null, 2)).toMatchFileSnapshot("./golden/history.v3-composed.json");
  });

  it("v2", async () => {
    const v2 = renderLegacy(2);
    expect(operations(v2)).toEqual([
      ["incident.created", ["POST /v2/incident", "PUT /v2/incident/{id}/position", "PUT /v2/incident/{id}/position"]], // MobileApp (merged with MobileAppSms), Manual,
      ["labelChanged", ["POST /v2/incident"]],
      ["caller.newLocation", ["POST /v2/incident/{id}/position"]],
      [
        "caller.deviceInfoChanged",
        ["PATCH /v2/incident/{id}/battery-level", "PATCH /v2/incident/{id}/internet-connection-type"],
      ],
      ["involvedAgency.invited", ["POST /v2/incident/{id}/psap"]],
      ["caller.liveVideo.activated", ["POST /v2/incident/{id}/start-video"]],
      ["caller.changed", ["POST /v2/incident"]],
      ["incident.closed", ["POST /v2/incident/{id}"]],
    ]);
    await expect(JSON.stringify(v2, null, 2)).toMatchFileSnapshot("./golden/history.v2.json");
  });

  it("v1: the v2 bodies under /v1", async () => {
    const v1 = renderLegacy(1);
    expect(JSON.stringify(v1).replaceAll("/v1/", "/v2/")).toBe(JSON.stringify(renderLegacy(2)));
    await expect(JSON.stringify(v1, null, 2)).toMatchFileSnapshot("./golden/history.v1.json");
  });

  it("v2 merges the MobileApp and MobileAppSms tracks in order of receipt; an append lands at its end", () => {
    const v2 = renderLegacy(2);
    const created = v2[0]!.events[0]!.body as {
      incident: { caller: { tracks: Array<{ positionSource: string; track: Array<{ captureAtUtc: string }> }> } };
    };
    expect(
      created.incident.caller.tracks.map((t) => [t.positionSource, t.track.map((p) => p.captureAtUtc.slice(11, 16))]),
    ).toEqual([
      ["MobileApp", ["06:01", "06:02", "06:03"]],
      ["Manual", ["06:01"]],
    ]);
    const appended = v2[2]!.events[0]!.body as { position: { positionSource: string; captureAtUtc: string } };
    expect(appended.position).toMatchObject({ positionSource: "MobileApp", captureAtUtc: "2026-11-22T06:05:00.000Z" });
  });
});
