// The legacy planner's own rules beyond the golden history: the folded
// MobileApp track, lanes per contract (the cutover), resend, newly involved.
import { describe, expect, it } from "vitest";
import { goldenHistory, goldenSnapshot, gps, sequentialIds } from "../../webhook-contracts/testing/golden-history.ts";
import { buildChange, buildSnapshot } from "../testing/build-change.ts";
import { laneForMajor, laneMajorOf, laneToStore } from "./legacy-lane.ts";
import { contractOfPath } from "../outbox/outbox-row.ts";
import { NEW_LANE } from "./plan-events.ts";
import { planLegacyEvents, planLegacyIntroduction } from "./plan-legacy-events.ts";

const ops = (events: Array<{ method: string; path: string }>) =>
  events.map((e) => `${e.method} ${e.path.replace(/\/[0-9a-f-]{36}/, "/{id}")}`);
const snapshot = goldenSnapshot();
const smsFix = { ...gps(8, 60.3), source: "MobileAppSms" as const };
const withSms = structuredClone(snapshot);
withSms.caller.tracks[2]!.track.push(smsFix);
const smsAppended = buildChange({ kind: "caller.newLocation", source: "MobileAppSms", location: smsFix }, withSms);

describe("planLegacyEvents", () => {
  it("gives v1 and v2 isTest true for a Test incident only: false for Real and Demo (Delivery rule 6)", () => {
    for (const major of [1, 2] as const)
      for (const [purpose, isTest] of [
        ["Real", false],
        ["Demo", false],
        ["Test", true],
      ] as const) {
        const change = buildChange(
          { kind: "incident.created" },
          buildSnapshot({ id: "0e7f0000-0000-4000-8000-0000000000d1", purpose }),
        );
        const [create] = planLegacyEvents({ change, lane: NEW_LANE, major }).events;
        expect({
          major,
          purpose,
          path: create!.path,
          isTest: (create!.body.incident as { isTest: boolean }).isTest,
        }).toEqual({ major, purpose, path: `/v${major}/incident`, isTest });
      }
  });

  it("appends a MobileAppSms fix to the merged v2 MobileApp track only when the receiver holds every part of it", () => {
    const held = planLegacyEvents({
      change: smsAppended,
      lane: { introduced: true, fullTracks: ["MobileApp", "MobileAppSms", "Entered"] },
      major: 2,
    });
    expect(ops(held.events)).toEqual(["POST /v2/incident/{id}/position"]);
    expect(held.events[0]!.body.position).toMatchObject({
      positionSource: "MobileApp",
      captureAtUtc: "2026-11-22T06:08:00.000Z",
    });
    const partly = planLegacyEvents({
      change: smsAppended,
      lane: { introduced: true, fullTracks: ["MobileAppSms", "Entered"] },
      major: 2,
    });
    expect(ops(partly.events)).toEqual(["PUT /v2/incident/{id}/position"]);
    expect((partly.events[0]!.body.track as unknown[]).length).toBe(4); // 2 MobileApp + 2 MobileAppSms, in order of receipt
    expect(new Set(partly.lane.fullTracks)).toEqual(new Set(["MobileApp", "MobileAppSms", "Entered"]));
  });

  it("sends a change without a v2 route as the whole incident, and composed caller data too", () => {
    const lane = { introduced: true, fullTracks: [] };
    for (const kind of [
      { kind: "summaryChanged" },
      { kind: "caller.chat.activated" },
      { kind: "caller.changed", what: "medicData" },
      { kind: "caller.fullNameChanged" },
    ] as const) {
      expect(ops(planLegacyEvents({ change: buildChange(kind, snapshot), lane, major: 2 }).events), kind.kind).toEqual([
        "POST /v2/incident",
      ]);
    }
  });

  it("gives a lane not yet introduced (a newly involved agency) the create-and-track sequence, whatever the change", () => {
    const plan = planLegacyEvents({
      change: buildChange({ kind: "labelChanged" }, snapshot),
      lane: NEW_LANE,
      major: 1,
    });
    expect(ops(plan.events)).toEqual([
      "POST /v1/incident",
      "PUT /v1/incident/{id}/position",
      "PUT /v1/incident/{id}/position",
    ]);
  });

  it("resends an incident as new events with fresh request ids", () => {
    const a = planLegacyIntroduction({ snapshot, seq: 9, now: new Date("2026-11-22T07:00:00.000Z"), major: 2 });
    const b = planLegacyIntroduction({ snapshot, seq: 9, now: new Date("2026-11-22T07:00:00.000Z"), major: 2 });
    expect(ops(a.events)).toEqual(ops(b.events));
    expect(a.events[0]!.requestId).not.toBe(b.events[0]!.requestId);
    expect(a.events[0]!.body.requestTimeStampUtc).toBe("2026-11-22T07:00:00.000Z");
  });

  it("resends a closed incident with its close after the create-and-track sequence (the v2 incident has no closed state)", () => {
    const now = new Date("2026-11-22T07:00:00.000Z");
    const open = planLegacyIntroduction({ snapshot, seq: 9, now, major: 1, closedAtUtc: null });
    const closed = planLegacyIntroduction({ snapshot, seq: 9, now, major: 1, closedAtUtc: "2026-11-22T06:30:00.000Z" });
    expect(ops(closed.events)).toEqual([...ops(open.events), "POST /v1/incident/{id}"]);
    expect(closed.events.at(-1)!.body.closedTimeUtc).toBe("2026-11-22T06:30:00.000Z");
  });

  it("uses the id it puts in the body as the delivery's requestId", () => {
    const newId = sequentialIds();
    const [created] = goldenHistory();
    for (const e of planLegacyEvents({ change: created!, lane: NEW_LANE, major: 2, newId }).events)
      expect(e.body.requestId).toBe(e.requestId);
  });
});

describe("lanes per contract (the cutover)", () => {
  it("stores a legacy lane with its contract and reads it back only for that contract", () => {
    const stored = laneToStore({ introduced: true, fullTracks: ["MobileApp"] }, 2);
    expect(stored.fullTracks).toEqual(["MobileApp", "@contract:v2"]);
    expect(laneForMajor(stored, 2)).toEqual({ introduced: true, fullTracks: ["MobileApp"] });
    expect(laneForMajor(stored, 3)).toEqual(NEW_LANE); // switched to v3: start anew
    expect(laneForMajor(laneToStore({ introduced: true, fullTracks: ["Entered"] }, 3), 2)).toEqual(NEW_LANE); // and back
    expect(laneForMajor({ introduced: true, fullTracks: ["Entered"] }, 3)).toEqual({
      introduced: true,
      fullTracks: ["Entered"],
    });
  });

  it("reads the contract of a stored lane and of an outbox row's path", () => {
    expect(
      [1, 2, 3].map((m) => laneMajorOf(laneToStore({ introduced: true, fullTracks: ["Entered"] }, m as 1 | 2 | 3))),
    ).toEqual([1, 2, 3]);
    expect(
      ["/v1/incident", "/v2/incident/x/position", "/v3/incidents", "/v4/incidents", "/v3", "/about"].map(
        contractOfPath,
      ),
    ).toEqual([1, 2, 3, null, null, null]);
  });
});
