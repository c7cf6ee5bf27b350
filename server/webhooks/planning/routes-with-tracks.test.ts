// Holds ROUTES_WITH_TRACKS true: the aggregate reads caller tracks only when a
// planned event's route is in it (lazy tracks, incidents/track-storage.ts), so
// every other route must render the same body whether the tracks were read or not.
import { describe, expect, it } from "vitest";
import {
  knownLocation,
  makeSnapshot,
  measuredLocation,
  NORTH_PSAP,
} from "../../reference-receiver/testing/snapshot-fixture.ts";
import type { TIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { renderEventBody } from "../../webhook-contracts/v3/render-event-body.ts";
import { V3_FLAGS, type V3Flag } from "../../webhook-contracts/v3/capability-flags.ts";
import { renderLegacyBody } from "../../webhook-contracts/v2/render-event-body.ts";
import { LEGACY_ROUTES, type LegacyRouteKey } from "../../webhook-contracts/v2/routes.ts";
import { ROUTES_WITH_TRACKS } from "./plan-deliveries.ts";

const whole = makeSnapshot({ label: "Fall" });
whole.caller.tracks = [
  { source: "Entered", track: [knownLocation(59.9, 10.7), knownLocation(59.91, 10.71)] },
  { source: "MobileApp", track: [measuredLocation(59.92, 10.72)] },
];
// What the aggregate holds before filling: an append's new position only.
const lazy: TIncidentSnapshotV3 = {
  ...whole,
  caller: {
    ...whole.caller,
    tracks: [
      { source: "Entered", track: [knownLocation(59.91, 10.71)] },
      { source: "MobileApp", track: [] },
    ],
  },
};

const v3 = (key: V3Flag, s: TIncidentSnapshotV3) =>
  renderEventBody(key, {
    snapshot: s,
    location: knownLocation(59.91, 10.71),
    source: "Entered",
    agencyId: NORTH_PSAP,
    closedAtUtc: "2026-11-22T07:00:00.000Z",
    standsFor: "labelChanged",
  });
const legacy = (key: LegacyRouteKey, s: TIncidentSnapshotV3) =>
  renderLegacyBody(key, {
    snapshot: s,
    requestId: "5d0c1c8e-5d4a-4f7e-9f55-6c9a0b1f2e3d",
    producedAt: new Date("2026-11-22T06:30:00.000Z"),
    location: knownLocation(59.91, 10.71),
    positionSource: "Manual",
    agencyId: NORTH_PSAP,
    closedAtUtc: "2026-11-22T07:00:00.000Z",
  });

describe("routes whose bodies carry caller tracks", () => {
  it.each(V3_FLAGS)("v3 %s: listed exactly when its body differs without the whole tracks", (key) => {
    expect(JSON.stringify(v3(key, lazy)) !== JSON.stringify(v3(key, whole))).toBe(ROUTES_WITH_TRACKS.has(key));
  });

  it.each(Object.keys(LEGACY_ROUTES) as LegacyRouteKey[])(
    "v1/v2 %s: listed exactly when its body differs without the whole tracks",
    (key) => {
      expect(JSON.stringify(legacy(key, lazy)) !== JSON.stringify(legacy(key, whole))).toBe(
        ROUTES_WITH_TRACKS.has(key),
      );
    },
  );
});
