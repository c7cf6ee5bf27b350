// lazyPlanHolds (plan-deliveries.ts): whenever it trusts a plan made on lazy
// tracks (each track holding only the positions its transaction added), that
// plan must be the plan whole tracks give. Checked across capability sets, lane
// states, change kinds and the v3 and v1/v2 planners.
import { describe, expect, it } from "vitest";
import type { IncidentChangeKind } from "../../incidents/change-record.ts";
import type { TIncidentSnapshotV3, TLocationSource } from "../../incidents/snapshot.schema.ts";
import { V3_FLAGS, type V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { buildChange, buildSnapshot, EMS, measured } from "../testing/build-change.ts";
import { lazyPlanHolds } from "./plan-deliveries.ts";
import { NEW_LANE, planEvents, type LaneState } from "./plan-events.ts";
import { planLegacyEvents } from "./plan-legacy-events.ts";

const whole = buildSnapshot({ id: "6a0e2f8e-9a4b-4c41-8d7e-3b1f5d8c2a10", label: "Fall" });
whole.caller.tracks = [
  {
    source: "MobileApp",
    track: [measured("MobileApp", "2026-11-22T06:00:00.000Z"), measured("MobileApp", "2026-11-22T06:01:00.000Z")],
  },
  { source: "MobileAppSms", track: [measured("MobileAppSms", "2026-11-22T06:00:30.000Z")] },
  { source: "Aml", track: [measured("Aml", "2026-11-22T06:00:10.000Z")] },
];
const appended = measured("MobileApp", "2026-11-22T06:02:00.000Z");
const withAppend = (s: TIncidentSnapshotV3): TIncidentSnapshotV3 => ({
  ...s,
  caller: {
    ...s.caller,
    tracks: s.caller.tracks.map((t) => (t.source === "MobileApp" ? { ...t, track: [...t.track, appended] } : t)),
  },
});
// The lazy form: placeholders, plus what the transaction added.
const lazyOf = (s: TIncidentSnapshotV3, added: TLocationSource | null): TIncidentSnapshotV3 => ({
  ...s,
  caller: {
    ...s.caller,
    tracks: s.caller.tracks.map((t) => ({ source: t.source, track: t.source === added ? [appended] : [] })),
  },
});

const kinds: Array<[string, IncidentChangeKind, TIncidentSnapshotV3, TLocationSource | null]> = [
  [
    "an append",
    { kind: "caller.newLocation", source: "MobileApp", location: appended },
    withAppend(whole),
    "MobileApp",
  ],
  ["a label change", { kind: "labelChanged" }, whole, null],
  [
    "an invitation",
    { kind: "involvedAgency.invited", agencyId: EMS },
    {
      ...whole,
      involvedAgencies: [
        ...whole.involvedAgencies,
        { id: EMS, displayName: "Central EMS", collaboration: "Pending", invitedBy: null },
      ],
    },
    null,
  ],
];
const flagSets: Array<[string, V3Flag[]]> = [
  ["everything", [...V3_FLAGS]],
  ["created + changed", ["incident.created", "incident.changed"]],
  ["changed + trackReplaced", ["incident.changed", "caller.trackReplaced"]],
  ["created + trackReplaced + newLocation", ["incident.created", "caller.trackReplaced", "caller.newLocation"]],
];
const lanes: Array<[string, LaneState]> = [
  ["new lane", NEW_LANE],
  ["introduced, MobileApp whole", { introduced: true, fullTracks: ["MobileApp", "Aml"] }],
  ["introduced, MobileAppSms whole only", { introduced: true, fullTracks: ["MobileAppSms"] }],
  ["introduced, nothing whole", { introduced: true, fullTracks: [] }],
];
const strip = (events: Array<{ route: string; body: unknown }>) =>
  events.map((e) =>
    JSON.stringify({ ...e, requestId: undefined, body: { ...(e.body as object), requestId: undefined } }),
  );

describe("lazyPlanHolds", () => {
  for (const [kindName, kind, snapshot, added] of kinds) {
    for (const [laneName, lane] of lanes) {
      for (const [flagName, flags] of flagSets) {
        it(`v3, ${kindName}, ${laneName}, ${flagName}`, () => {
          const lazyChange = buildChange(kind, lazyOf(snapshot, added));
          const lazy = planEvents({ change: lazyChange, flags: new Set(flags), lane });
          const full = planEvents({ change: buildChange(kind, snapshot), flags: new Set(flags), lane });
          if (lazyPlanHolds([lazyChange], [{ plans: [{ target: { major: 3, lane }, plan: lazy }] }])) {
            expect(strip(lazy.events)).toEqual(strip(full.events));
            expect(lazy.lane).toEqual(full.lane);
          }
        });
      }
      it(`v2, ${kindName}, ${laneName}`, () => {
        const lazyChange = buildChange(kind, lazyOf(snapshot, added));
        const lazy = planLegacyEvents({ change: lazyChange, lane, major: 2 });
        const full = planLegacyEvents({ change: buildChange(kind, snapshot), lane, major: 2 });
        if (lazyPlanHolds([lazyChange], [{ plans: [{ target: { major: 2, lane }, plan: lazy }] }])) {
          expect(strip(lazy.events)).toEqual(strip(full.events));
          expect(lazy.lane).toEqual(full.lane);
        }
      });
    }
  }

  it("trusts the common case: an append to an introduced v3 lane holding that track whole", () => {
    const lane: LaneState = { introduced: true, fullTracks: ["MobileApp"] };
    const change = buildChange(kinds[0]![1], lazyOf(withAppend(whole), "MobileApp"));
    const plan = planEvents({ change, flags: new Set(V3_FLAGS), lane });
    expect(plan.events.map((e) => e.route)).toEqual(["caller.newLocation"]);
    expect(lazyPlanHolds([change], [{ plans: [{ target: { major: 3, lane }, plan }] }])).toBe(true);
  });
});
