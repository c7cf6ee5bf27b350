// The explanation against the planner itself: each case plans a change with plan-events.ts for a
// declaration and explains the event it produced, as the inspector does from the stored row.
import { describe, expect, it } from "vitest";
import type { IncidentChangeKind } from "../../incidents/change-record.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { genericEventName, v3EventName } from "../../webhook-contracts/v3/routes.ts";
import { buildChange, buildSnapshot, measured } from "../testing/build-change.ts";
import { NEW_LANE, planEvents, type LaneState } from "../planning/plan-events.ts";
import { explainRewrite } from "./explain-rewrite.ts";

const ID = "7f3c2a10-0000-4000-8000-000000000002";
const at = "2026-11-22T06:01:00.000Z";
const snapshot = buildSnapshot({ id: ID });
snapshot.caller.tracks = [{ source: "MobileApp", track: [measured("MobileApp", at)] }];
const HELD: LaneState = { introduced: true, fullTracks: ["MobileApp"] };

function explainPlanned(kind: IncidentChangeKind, flags: V3Flag[], lane: LaneState = HELD) {
  const { events } = planEvents({ change: buildChange(kind, snapshot), flags: new Set(flags), lane });
  return events.map((e) =>
    explainRewrite({
      changeKind: kind.kind,
      eventName: e.standsFor ? genericEventName(e.standsFor) : v3EventName(e.route),
      path: e.path,
      flags,
    }),
  );
}

const ADDED: IncidentChangeKind = {
  kind: "caller.newLocation",
  source: "MobileApp",
  location: measured("MobileApp", at),
};

describe("explainRewrite", () => {
  it("notes a name change sent as PUT caller because caller.changed is declared (rule 3)", () => {
    const [note] = explainPlanned({ kind: "caller.fullNameChanged" }, [
      "incident.created",
      "caller.changed",
      "caller.fullNameChanged",
    ]);
    expect(note).toMatch(/^A name change sent as PUT caller .*declares caller\.changed.*rule 3/);
  });

  it("notes an append sent as a whole-track PUT, naming the undeclared flag or the track not held", () => {
    const [undeclared] = explainPlanned(ADDED, ["incident.created", "caller.trackReplaced"]);
    expect(undeclared).toMatch(/whole track \(PUT caller\/track\): the receiver does not declare caller\.newLocation/);
    const [notHeld] = explainPlanned(ADDED, ["incident.created", "caller.trackReplaced", "caller.newLocation"], {
      introduced: true,
      fullTracks: [],
    });
    expect(notHeld).toMatch(/did not hold this source's whole track yet.*rule 5/);
  });

  it("notes the generic changed event and what it stands for (rule 2)", () => {
    const [note] = explainPlanned({ kind: "labelChanged" }, ["incident.created", "incident.changed"]);
    expect(note).toMatch(/generic POST changed \(standing for PATCH label\).*does not declare labelChanged/);
  });

  it("notes the create-and-track sequence sent for a later change to a new receiver (rule 6)", () => {
    const notes = explainPlanned({ kind: "labelChanged" }, ["incident.created", "caller.trackReplaced"], NEW_LANE);
    expect(notes).toHaveLength(2);
    expect(notes.every((n) => n?.startsWith("Part of the create-and-track sequence (rule 6)"))).toBe(true);
  });

  it("says nothing when the event is the one its change names", () => {
    expect(explainPlanned(ADDED, ["incident.created", "caller.newLocation", "caller.trackReplaced"])).toEqual([null]);
    expect(explainPlanned({ kind: "labelChanged" }, ["incident.created", "labelChanged"])).toEqual([null]);
    expect(
      explainRewrite({ changeKind: "labelChanged", eventName: "incident", path: "/v2/incidents", flags: null }),
    ).toBeNull();
  });
});
