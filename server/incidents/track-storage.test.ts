import { describe, expect, it } from "vitest";
import { makeSnapshot } from "../reference-receiver/testing/snapshot-fixture.ts";
import { markTracks, toStoredSnapshot, trackDelta } from "./track-storage.ts";
import type { TLocation } from "./snapshot.schema.ts";

const at = (lat: number, source: "Entered" | "MobileApp" = "Entered"): TLocation =>
  source === "Entered"
    ? {
        type: "Known",
        latitude: lat,
        longitude: 10.7,
        capturedAtUtc: "2026-11-23T05:00:00.000Z",
        receivedAtUtc: "2026-11-23T05:00:00.000Z",
        source,
      }
    : {
        type: "Measured",
        latitude: lat,
        longitude: 10.7,
        accuracy: 9,
        altitude: null,
        altitudeAccuracy: null,
        capturedAtUtc: "2026-11-23T05:00:00.000Z",
        receivedAtUtc: "2026-11-23T05:00:00.000Z",
        source,
      };

describe("track storage", () => {
  it("stores the snapshot with each track emptied, order kept, everything else shared", () => {
    const s = makeSnapshot();
    s.caller.tracks = [
      { source: "MobileApp", track: [at(1, "MobileApp")] },
      { source: "Entered", track: [at(2)] },
    ];
    const stored = toStoredSnapshot(s);
    expect(stored.caller.tracks).toEqual([
      { source: "MobileApp", track: [] },
      { source: "Entered", track: [] },
    ]);
    expect(s.caller.tracks[0]!.track).toHaveLength(1);
    expect(stored.involvedAgencies).toBe(s.involvedAgencies);
  });

  it("finds appended positions, replaced tracks and new sources; nothing when untouched", () => {
    const s = makeSnapshot();
    s.caller.tracks = [
      { source: "Entered", track: [at(1)] },
      { source: "MobileApp", track: [at(2, "MobileApp")] },
    ];
    const marks = markTracks(s);
    expect(trackDelta(s.caller.tracks, marks)).toEqual({ added: [], replacedSources: [] });

    s.caller.tracks[0]!.track.push(at(3), at(4));
    s.caller.tracks[1]!.track = [at(5, "MobileApp")];
    s.caller.tracks.push({ source: "Aml", track: [at(6, "MobileApp")] } as never);
    const delta = trackDelta(s.caller.tracks, marks);
    expect(delta.replacedSources).toEqual(["MobileApp"]);
    expect(delta.added.map((a) => [a.source, a.location.latitude])).toEqual([
      ["Entered", 3],
      ["Entered", 4],
      ["MobileApp", 5],
      ["Aml", 6],
    ]);
  });

  it("adds every position of a new incident", () => {
    const s = makeSnapshot();
    s.caller.tracks = [{ source: "Entered", track: [at(1), at(2)] }];
    expect(trackDelta(s.caller.tracks, undefined).added.map((a) => a.location.latitude)).toEqual([1, 2]);
  });
});
