import { describe, expect, it } from "vitest";
import type { TTrack } from "@/server/incidents/snapshot.schema";
import { captureTimes, tracksAt } from "./select-tracks";

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 6, 0, s)).toISOString();
const tracks: TTrack[] = [
  {
    source: "Aml",
    track: [
      {
        type: "Measured",
        accuracy: 20,
        altitude: null,
        altitudeAccuracy: null,
        latitude: 1,
        longitude: 1,
        capturedAtUtc: at(30),
        receivedAtUtc: at(31),
        source: "Aml",
      },
      {
        type: "Measured",
        accuracy: 80,
        altitude: null,
        altitudeAccuracy: null,
        latitude: 1,
        longitude: 1,
        capturedAtUtc: at(10),
        receivedAtUtc: at(11),
        source: "Aml",
      },
    ],
  },
  {
    source: "Entered",
    track: [
      { type: "Known", latitude: 2, longitude: 2, capturedAtUtc: at(20), receivedAtUtc: at(20), source: "Entered" },
    ],
  },
];

describe("tracksAt", () => {
  it("shows only what was captured by then, oldest first, and drops empty tracks", () => {
    expect(tracksAt(tracks, Date.parse(at(15)))).toEqual([{ source: "Aml", track: [tracks[0]!.track[1]] }]);
    const later = tracksAt(tracks, Date.parse(at(30)));
    expect(later.map((t) => t.track.length)).toEqual([2, 1]);
    expect(later[0]!.track[0]!.capturedAtUtc).toBe(at(10));
  });
  it("lists distinct capture times ascending as the slider's stops", () => {
    expect(captureTimes(tracks)).toEqual([at(10), at(20), at(30)].map(Date.parse));
  });
});
