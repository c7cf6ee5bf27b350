// The planner, table-driven: capability profiles × change kinds, each cell the
// exact ordered operations the receiver gets; then rule invariants over random
// flag sets (fast-check); every body validated against its JSON-Schema source.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IncidentChangeKind } from "../../incidents/change-record.ts";
import { V3_FLAGS, type V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { operationOf, V3_EVENT_BODIES } from "../../webhook-contracts/v3/routes.ts";
import { buildChange, buildSnapshot, EMS, measured, NORTH } from "../testing/build-change.ts";
import { NEW_LANE, planEvents, planResendSequence, type LaneState, type PlannedEvent } from "./plan-events.ts";

const ID = "7f3c2a10-0000-4000-8000-000000000001";
const at = "2026-11-22T06:01:00.000Z";
const snapshot = buildSnapshot({
  id: ID,
  label: "Fire at pier",
  summary: null,
  callSign: "N-1",
  patient: { description: "adult" },
  involvedAgencies: [
    { id: NORTH, displayName: "North PSAP", collaboration: "Owner", invitedBy: null },
    {
      id: EMS,
      displayName: "Central EMS",
      collaboration: "Pending",
      invitedBy: { id: NORTH, displayName: "North PSAP" },
    },
  ],
  caller: {
    ...buildSnapshot({ id: ID }).caller,
    fullName: "Ada Caller",
    deviceInfo: {
      batteryLevel: 40,
      operatingSystem: "Android",
      operatingSystemVersion: "15",
      internetConnectionType: "Cellular5G",
      liveVideoSupport: true,
      automaticDetections: { crashDetected: false, fallDetected: false },
    },
    chat: { state: "Active", activatedAtUtc: at, portalUrl: "http://localhost:3000/portal/chat/1" },
    liveVideo: {
      state: "Ended",
      activatedAtUtc: at,
      endedAtUtc: at,
      portalUrl: "http://localhost:3000/portal/video/1",
    },
    tracks: [
      { source: "MobileApp", track: [measured("MobileApp", at), measured("MobileApp", at, 60.2)] },
      {
        source: "Entered",
        track: [
          { type: "Known", latitude: 60.1, longitude: 24.9, capturedAtUtc: at, receivedAtUtc: at, source: "Entered" },
        ],
      },
    ],
  },
});

const KINDS: Record<string, IncidentChangeKind> = {
  created: { kind: "incident.created" },
  closed: { kind: "incident.closed", closedAtUtc: at },
  callerChanged: { kind: "caller.changed", what: "medicData" },
  fullName: { kind: "caller.fullNameChanged" },
  phone: { kind: "caller.phoneNumberChanged" },
  device: { kind: "caller.deviceInfoChanged" },
  appendHeld: { kind: "caller.newLocation", source: "MobileApp", location: measured("MobileApp", at, 60.2) },
  appendNotHeld: {
    kind: "caller.newLocation",
    source: "Entered",
    location: {
      type: "Known",
      latitude: 60.1,
      longitude: 24.9,
      capturedAtUtc: at,
      receivedAtUtc: at,
      source: "Entered",
    },
  },
  replaced: { kind: "caller.trackReplaced", source: "MobileApp" },
  chat: { kind: "caller.chat.activated" },
  videoOn: { kind: "caller.liveVideo.activated" },
  videoOff: { kind: "caller.liveVideo.ended" },
  invited: { kind: "involvedAgency.invited", agencyId: EMS },
  collaboration: { kind: "involvedAgency.collaboration.changed", agencyId: EMS },
  label: { kind: "labelChanged" },
  summary: { kind: "summaryChanged" },
  callSign: { kind: "callSignChanged" },
  patient: { kind: "patient.descriptionChanged" },
};

const ALL = new Set<V3Flag>(V3_FLAGS);
const PROFILES: Record<string, ReadonlySet<V3Flag>> = {
  /** composed shape: caller.changed declared (with every PATCH flag too: rule 3 ignores them) */
  composed: ALL,
  specific: new Set(V3_FLAGS.filter((f) => f !== "caller.changed")),
  createdAndChanged: new Set(["incident.created", "incident.changed"]),
  changedOnly: new Set(["incident.changed"]),
  replaceOnly: new Set(["incident.changed", "caller.trackReplaced"]),
  nothing: new Set(["labelChanged"]),
};

/** Short names: "PUT caller/track[MobileApp]", "changed(PATCH label)". */
function describeEvent(e: PlannedEvent): string {
  if (e.route === "incident.changed") return `changed(${operationOf(e.standsFor!)})`;
  const rel = e.path.replace(`/v3/incidents/${ID}/`, "").replace("/v3/incidents", "incidents");
  return `${e.method} ${rel}${e.route === "caller.trackReplaced" ? `[${(e.body as { source: string }).source}]` : ""}`;
}

const HELD: LaneState = { introduced: true, fullTracks: ["MobileApp"] };
const PUT_BOTH = ["PUT caller/track[MobileApp]", "PUT caller/track[Entered]"];
const c = (op: string) => `changed(${op})`;

// [kind, composed, specific, createdAndChanged, changedOnly, replaceOnly, nothing]; created runs on a new lane, the rest on HELD.
const TABLE: Array<[string, string[], string[], string[], string[], string[], string[]]> = [
  [
    "created",
    ["POST incidents", ...PUT_BOTH],
    ["POST incidents", ...PUT_BOTH],
    ["POST incidents"],
    [c("POST incidents")],
    [c("POST incidents"), ...PUT_BOTH],
    [],
  ],
  ["closed", ["POST closed"], ["POST closed"], [c("POST closed")], [c("POST closed")], [c("POST closed")], []],
  ["callerChanged", ["PUT caller"], [c("PUT caller")], [c("PUT caller")], [c("PUT caller")], [c("PUT caller")], []],
  [
    "fullName",
    ["PUT caller"],
    ["PATCH caller/full-name"],
    [c("PATCH caller/full-name")],
    [c("PATCH caller/full-name")],
    [c("PATCH caller/full-name")],
    [],
  ],
  [
    "phone",
    ["PUT caller"],
    ["PATCH caller/phone-number"],
    [c("PATCH caller/phone-number")],
    [c("PATCH caller/phone-number")],
    [c("PATCH caller/phone-number")],
    [],
  ],
  [
    "device",
    ["PUT caller"],
    ["PATCH caller/device-info"],
    [c("PATCH caller/device-info")],
    [c("PATCH caller/device-info")],
    [c("PATCH caller/device-info")],
    [],
  ],
  [
    "appendHeld",
    ["POST caller/track"],
    ["POST caller/track"],
    [c("POST caller/track")],
    [c("POST caller/track")],
    ["PUT caller/track[MobileApp]"],
    [],
  ],
  [
    "appendNotHeld",
    ["PUT caller/track[Entered]"],
    ["PUT caller/track[Entered]"],
    [c("POST caller/track")],
    [c("POST caller/track")],
    ["PUT caller/track[Entered]"],
    [],
  ],
  [
    "replaced",
    ["PUT caller/track[MobileApp]"],
    ["PUT caller/track[MobileApp]"],
    [c("PUT caller/track")],
    [c("PUT caller/track")],
    ["PUT caller/track[MobileApp]"],
    [],
  ],
  [
    "chat",
    ["POST caller/chat/activated"],
    ["POST caller/chat/activated"],
    [c("POST caller/chat/activated")],
    [c("POST caller/chat/activated")],
    [c("POST caller/chat/activated")],
    [],
  ],
  [
    "videoOn",
    ["POST caller/live-video/activated"],
    ["POST caller/live-video/activated"],
    [c("POST caller/live-video/activated")],
    [c("POST caller/live-video/activated")],
    [c("POST caller/live-video/activated")],
    [],
  ],
  [
    "videoOff",
    ["POST caller/live-video/ended"],
    ["POST caller/live-video/ended"],
    [c("POST caller/live-video/ended")],
    [c("POST caller/live-video/ended")],
    [c("POST caller/live-video/ended")],
    [],
  ],
  [
    "invited",
    ["POST involved-agency"],
    ["POST involved-agency"],
    [c("POST involved-agency")],
    [c("POST involved-agency")],
    [c("POST involved-agency")],
    [],
  ],
  [
    "collaboration",
    [`PATCH involved-agency/${EMS}/collaboration`],
    [`PATCH involved-agency/${EMS}/collaboration`],
    [c("PATCH involved-agency/{agencyId}/collaboration")],
    [c("PATCH involved-agency/{agencyId}/collaboration")],
    [c("PATCH involved-agency/{agencyId}/collaboration")],
    [],
  ],
  [
    "label",
    ["PATCH label"],
    ["PATCH label"],
    [c("PATCH label")],
    [c("PATCH label")],
    [c("PATCH label")],
    ["PATCH label"],
  ],
  [
    "summary",
    ["PATCH summary"],
    ["PATCH summary"],
    [c("PATCH summary")],
    [c("PATCH summary")],
    [c("PATCH summary")],
    [],
  ],
  [
    "callSign",
    ["PATCH call-sign"],
    ["PATCH call-sign"],
    [c("PATCH call-sign")],
    [c("PATCH call-sign")],
    [c("PATCH call-sign")],
    [],
  ],
  [
    "patient",
    ["PATCH patient/description"],
    ["PATCH patient/description"],
    [c("PATCH patient/description")],
    [c("PATCH patient/description")],
    [c("PATCH patient/description")],
    [],
  ],
];

const plan = (kind: string, flags: ReadonlySet<V3Flag>, lane: LaneState) =>
  planEvents({ change: buildChange(KINDS[kind]!, snapshot), flags, lane });

function validateBodies(events: PlannedEvent[]) {
  for (const e of events)
    expect(() => V3_EVENT_BODIES[e.route].parse(e.body), `${describeEvent(e)} body`).not.toThrow();
}

describe("planEvents: capability profiles × change kinds", () => {
  const profileNames = Object.keys(PROFILES);
  for (const [kind, ...expected] of TABLE) {
    profileNames.forEach((profile, i) => {
      it(`${kind} → ${profile}`, () => {
        const { events } = plan(kind, PROFILES[profile]!, kind === "created" ? NEW_LANE : HELD);
        expect(events.map(describeEvent)).toEqual(expected[i]);
        validateBodies(events);
      });
    });
  }
  it("covers every change kind of the contract", () => {
    expect(new Set(TABLE.map((r) => KINDS[r[0]]!.kind)).size).toBe(17);
  });
});

describe("planEvents: lanes", () => {
  it("a lane not yet introduced (newly involved agency, any change) gets the create-and-track sequence, even without incident.created", () => {
    const { events, lane } = plan(
      "label",
      new Set(["caller.trackReplaced", "caller.newLocation", "labelChanged"]),
      NEW_LANE,
    );
    expect(events.map(describeEvent)).toEqual(PUT_BOTH);
    expect(lane).toEqual({ introduced: true, fullTracks: ["MobileApp", "Entered"] });
  });
  it("after a whole-track PUT an append follows; after a generic changed for a track, appends stop until a whole track", () => {
    const flags = new Set<V3Flag>(["incident.changed", "caller.newLocation", "caller.trackReplaced"]);
    const first = plan("appendNotHeld", flags, { introduced: true, fullTracks: [] });
    expect(first.events.map(describeEvent)).toEqual(["PUT caller/track[Entered]"]);
    expect(plan("appendNotHeld", flags, first.lane).events.map(describeEvent)).toEqual(["POST caller/track"]);
    const stale = plan("appendHeld", new Set(["incident.changed", "caller.newLocation"]), HELD);
    expect(stale.lane.fullTracks).toEqual(["MobileApp"]); // append allowed: the track was held
    const replacedGeneric = plan("replaced", new Set(["incident.changed", "caller.newLocation"]), HELD);
    expect(replacedGeneric.lane.fullTracks).toEqual([]);
  });
  it("a closed incident's first delivery to a new receiver is create then closed", () => {
    expect(plan("closed", PROFILES.createdAndChanged!, NEW_LANE).events.map(describeEvent)).toEqual([
      "POST incidents",
      c("POST closed"),
    ]);
  });
  it("a resend (Delivery rule 5) is create, whole tracks, and closed when the incident is closed; nothing more when open", () => {
    const snapshot = buildSnapshot({ id: ID });
    const withTrack = {
      ...snapshot,
      caller: {
        ...snapshot.caller,
        tracks: [{ source: "MobileApp" as const, track: [measured("MobileApp", "2026-11-22T06:00:00.000Z")] }],
      },
    };
    const closed = planResendSequence(withTrack, ALL, "2026-11-22T07:00:00.000Z");
    expect(closed.events.map((e) => `${e.method} ${e.route}`)).toEqual([
      "POST incident.created",
      "PUT caller.trackReplaced",
      "POST incident.closed",
    ]);
    expect(closed.events.at(-1)!.body).toEqual({ closedAtUtc: "2026-11-22T07:00:00.000Z" });
    expect(planResendSequence(withTrack, ALL, null).events.map((e) => e.route)).toEqual([
      "incident.created",
      "caller.trackReplaced",
    ]);
  });
  it("never sends an empty track", () => {
    const empty = buildSnapshot({ id: ID });
    const { events } = planEvents({
      change: buildChange({ kind: "caller.trackReplaced", source: "MobileApp" }, empty),
      flags: ALL,
      lane: HELD,
    });
    expect(events).toEqual([]);
  });
});

describe("planEvents: rule invariants over random capability sets", () => {
  const arbFlags = fc.subarray([...V3_FLAGS]).map((f) => new Set<V3Flag>(f));
  const arbKind = fc.constantFrom(...Object.keys(KINDS));
  const arbLane = fc.record({
    introduced: fc.boolean(),
    fullTracks: fc.subarray(["MobileApp", "Entered"] as const).map((x) => [...x]),
  });
  it("only declared routes, generic only with incident.changed, no caller PATCH under caller.changed, appends only to held tracks, never empty", () => {
    fc.assert(
      fc.property(arbFlags, arbKind, arbLane, (flags, kind, lane) => {
        const { events } = plan(kind, flags, lane);
        for (const e of events) {
          expect(flags.has(e.route)).toBe(true); // rule 1/2 (changed's own flag is incident.changed)
          if (flags.has("caller.changed"))
            expect(["caller.fullNameChanged", "caller.phoneNumberChanged", "caller.deviceInfoChanged"]).not.toContain(
              e.route,
            );
          if (e.route === "caller.newLocation")
            expect(
              lane.introduced &&
                lane.fullTracks.includes(
                  KINDS[kind]!.kind === "caller.newLocation"
                    ? (KINDS[kind] as { source: "MobileApp" }).source
                    : ("none" as never),
                ),
            ).toBe(true);
          if (e.route === "caller.trackReplaced")
            expect((e.body as { track: unknown[] }).track.length).toBeGreaterThan(0);
          expect(e.path).not.toMatch(/chat\/ended/);
        }
        validateBodies(events);
      }),
      { numRuns: 500 },
    );
  });
});
