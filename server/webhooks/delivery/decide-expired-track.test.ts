import { describe, expect, it } from "vitest";
import { renderLegacyBody } from "../../webhook-contracts/v2/render-event-body.ts";
import { legacyPath, type LegacyRouteKey } from "../../webhook-contracts/v2/routes.ts";
import { renderEventBody } from "../../webhook-contracts/v3/render-event-body.ts";
import type { V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { routePath, V3_ROUTES } from "../../webhook-contracts/v3/routes.ts";
import { buildSnapshot, measured } from "../testing/build-change.ts";
import { decideExpiredTrack, type OutboxEvent } from "./decide-expired-track.ts";
import { renderWholeTrack } from "./render-whole-track.ts";

const ID = "5f0e8a4e-8f5e-4c1b-9d7a-3b1f2c4d5e6f";
const entered1 = measured("Entered", "2026-11-22T06:01:00.000Z", 59.96, 10.75);
const entered2 = measured("Entered", "2026-11-22T06:02:00.000Z", 59.96, 10.76);
const app1 = measured("MobileApp", "2026-11-22T06:01:30.000Z");
const sms1 = measured("MobileAppSms", "2026-11-22T06:03:00.000Z");
const snapshot = buildSnapshot({ id: ID });
snapshot.caller.tracks = [
  { source: "Entered", track: [entered1, entered2] },
  { source: "MobileApp", track: [app1] },
  { source: "MobileAppSms", track: [sms1] },
];

let nextId = 1n;
const v3 = (
  key: V3Flag,
  input: { source?: "Entered" | "MobileApp"; location?: typeof entered1 } = {},
): OutboxEvent => ({
  id: nextId++,
  method: V3_ROUTES[key].method,
  path: routePath(key, ID),
  body: renderEventBody(key, { snapshot, ...input }),
});
const v2 = (
  key: LegacyRouteKey,
  input: { positionSource?: "Manual" | "MobileApp"; location?: typeof entered1 } = {},
): OutboxEvent => ({
  id: nextId++,
  method: key === "positionReplaced" ? "PUT" : "POST",
  path: legacyPath(key, 2, ID),
  body: renderLegacyBody(key, { snapshot, requestId: "r", producedAt: new Date(0), ...input }),
});
const decide = (expired: OutboxEvent, fullTracks: string[], queued: OutboxEvent[]) =>
  decideExpiredTrack({ incidentId: ID, expired, fullTracks, queued });

describe("decideExpiredTrack (v3)", () => {
  it("an expired append changes nothing: the lost location is the hole Delivery rule 5 names", () => {
    expect(
      decide(
        v3("caller.newLocation", { location: entered2 }),
        ["Entered"],
        [v3("caller.newLocation", { location: entered2 })],
      ),
    ).toBeNull();
    expect(decide(v3("labelChanged"), ["Entered"], [])).toBeNull();
  });

  it("an expired whole-track PUT rewrites the first queued append of that source, and only it; the source stays full", () => {
    const first = v3("caller.newLocation", { location: entered1 });
    const queued = [
      v3("caller.newLocation", { location: app1 }),
      v3("labelChanged"),
      first,
      v3("caller.newLocation", { location: entered2 }),
    ];
    expect(decide(v3("caller.trackReplaced", { source: "Entered" }), ["MobileApp", "Entered"], queued)).toEqual({
      fullTracks: ["MobileApp", "Entered"],
      rewrites: [{ deliveryId: first.id, track: { contract: 3, source: "Entered" } }],
    });
  });

  it("with no append queued, the source leaves fullTracks (the next change of it is planned as a whole track)", () => {
    expect(
      decide(
        v3("caller.trackReplaced", { source: "Entered" }),
        ["MobileApp", "Entered"],
        [v3("labelChanged"), v3("caller.newLocation", { location: app1 })],
      ),
    ).toEqual({ fullTracks: ["MobileApp"], rewrites: [] });
  });

  it("a whole track queued before any append of the source heals it: nothing rewritten, nothing forgotten", () => {
    for (const healer of [v3("caller.trackReplaced", { source: "Entered" }), v3("incident.created")]) {
      expect(
        decide(
          v3("caller.trackReplaced", { source: "Entered" }),
          ["Entered"],
          [healer, v3("caller.newLocation", { location: entered2 })],
        ),
      ).toEqual({ fullTracks: ["Entered"], rewrites: [] });
    }
  });

  it("an expired create forgets the tracks no queued whole track resends, and rewrites nothing (the receiver lacks the incident)", () => {
    const queued = [
      v3("caller.trackReplaced", { source: "MobileApp" }),
      v3("caller.newLocation", { location: entered2 }),
    ];
    expect(decide(v3("incident.created"), ["Entered", "MobileApp"], queued)).toEqual({
      fullTracks: ["MobileApp"],
      rewrites: [],
    });
  });

  it("after a contract switch the lane's tracks belong to the other contract: left alone, queued v3 appends still rewritten", () => {
    const append = v3("caller.newLocation", { location: entered2 });
    expect(decide(v3("caller.trackReplaced", { source: "Entered" }), ["Entered", "@contract:v2"], [append])).toEqual({
      fullTracks: ["Entered", "@contract:v2"],
      rewrites: [{ deliveryId: append.id, track: { contract: 3, source: "Entered" } }],
    });
    expect(decide(v3("caller.trackReplaced", { source: "Entered" }), ["Entered", "@contract:v2"], [])).toEqual({
      fullTracks: ["Entered", "@contract:v2"],
      rewrites: [],
    });
  });
});

describe("decideExpiredTrack (v1/v2)", () => {
  const lane = ["Entered", "MobileApp", "MobileAppSms", "@contract:v2"];

  it("an expired PUT position rewrites the first queued POST position of the same merged v2 track", () => {
    const smsAppend = v2("positionAppended", { location: sms1 }); // MobileAppSms folds into the v2 MobileApp track
    expect(
      decide(v2("positionReplaced", { positionSource: "MobileApp" }), lane, [
        v2("positionAppended", { location: entered2 }),
        smsAppend,
      ]),
    ).toEqual({
      fullTracks: lane,
      rewrites: [{ deliveryId: smsAppend.id, track: { contract: 2, positionSource: "MobileApp" } }],
    });
  });

  it("with nothing queued, every v3 source of the merged track leaves fullTracks; the contract marker stays", () => {
    expect(decide(v2("positionReplaced", { positionSource: "MobileApp" }), lane, [])).toEqual({
      fullTracks: ["Entered", "@contract:v2"],
      rewrites: [],
    });
  });

  it("a queued whole-incident upsert (POST incident) heals every track", () => {
    expect(
      decide(v2("positionReplaced", { positionSource: "Manual" }), lane, [
        v2("incident"),
        v2("positionAppended", { location: entered2 }),
      ]),
    ).toEqual({ fullTracks: lane, rewrites: [] });
  });

  it("an expired POST position is a hole, as in v3", () => {
    expect(decide(v2("positionAppended", { location: entered2 }), lane, [])).toBeNull();
  });
});

describe("renderWholeTrack", () => {
  it("v3: PUT caller/track with the source's whole track of that change", () => {
    expect(
      renderWholeTrack({ contract: 3, source: "Entered" }, { snapshot, requestId: "ignored", producedAt: new Date(0) }),
    ).toEqual({
      method: "PUT",
      path: `/v3/incidents/${ID}/caller/track`,
      eventName: "trackReplaced",
      body: { source: "Entered", track: [entered1, entered2] },
    });
  });

  it("v2: PUT position with the merged track, keeping the row's requestId and production time in the envelope", () => {
    const producedAt = new Date("2026-11-22T06:03:00.000Z");
    const event = renderWholeTrack(
      { contract: 2, positionSource: "MobileApp" },
      { snapshot, requestId: "8d0c-req", producedAt },
    );
    expect(event).toMatchObject({
      method: "PUT",
      path: `/v2/incident/${ID}/position`,
      eventName: "v2 positionReplaced",
    });
    expect(event.body).toMatchObject({
      requestId: "8d0c-req",
      requestTimeStampUtc: "2026-11-22T06:03:00.000Z",
      positionSource: "MobileApp",
    });
    expect((event.body as { track: unknown[] }).track).toHaveLength(2);
  });
});
