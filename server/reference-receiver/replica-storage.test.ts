import { describe, expect, it } from "vitest";
import type { Replica } from "./apply-event.ts";
import { splitTracks, trackEffectOf, TrackLedger } from "./replica-storage.ts";

const at = (longitude: number) => ({ latitude: 59.9, longitude });

/** A replica as processing holds it: each track has only the positions not yet stored. */
function replicaWith(tracks: Array<{ source: string; track: unknown[] }>): Replica {
  return { snapshot: { caller: { tracks } } as never, fullSources: tracks.map((t) => t.source), closedAtUtc: null };
}

describe("replica storage", () => {
  it("stores appended positions after the rows already stored, and empties the snapshot's tracks", () => {
    const ledger = new TrackLedger({ Device: 3, Entered: 1 });
    ledger.record(trackEffectOf({ flag: "caller.newLocation" }, { location: at(1) }));
    const stored = splitTracks(
      replicaWith([
        { source: "Device", track: [at(1), at(2)] },
        { source: "Entered", track: [] },
      ]),
      ledger,
    );
    expect(stored.positions).toEqual([
      { source: "Device", n: 3, location: at(1) },
      { source: "Device", n: 4, location: at(2) },
    ]);
    expect(stored.trackLengths).toEqual({ Device: 5, Entered: 1 });
    expect((stored.snapshot.caller.tracks as Array<{ track: unknown[] }>).map((t) => t.track)).toEqual([[], []]);
    expect(ledger.deletion("north-psap", "i-1")).toBeNull();
  });

  it("a replaced track starts again at 0 and its stored rows are deleted; the other tracks keep theirs", () => {
    const ledger = new TrackLedger({ Device: 3, Entered: 2 });
    ledger.record(trackEffectOf({ flag: "caller.trackReplaced" }, { source: "Device", track: [] }));
    const stored = splitTracks(
      replicaWith([
        { source: "Device", track: [at(7)] },
        { source: "Entered", track: [at(8)] },
      ]),
      ledger,
    );
    expect(stored.positions).toEqual([
      { source: "Device", n: 0, location: at(7) },
      { source: "Entered", n: 2, location: at(8) },
    ]);
    expect(stored.trackLengths).toEqual({ Device: 1, Entered: 3 });
    expect(ledger.deletion("north-psap", "i-1")?.values).toEqual(["north-psap", "i-1", ["Device"]]);
  });

  it("a create or a whole caller replaces every track; legacy routes name theirs positionSource", () => {
    const ledger = new TrackLedger({ Device: 3 });
    ledger.record(trackEffectOf({ legacyKey: "incident" }, {}));
    expect(ledger.base("Device")).toBe(0);
    expect(ledger.deletion("fire-rescue", "i-2")?.values).toEqual(["fire-rescue", "i-2"]);
    expect(trackEffectOf({ legacyKey: "positionReplaced" }, { positionSource: "MobileApp" })).toEqual({
      kind: "source",
      source: "MobileApp",
    });
    expect(trackEffectOf({ flag: "caller.changed" }, {})).toEqual({ kind: "all" });
    expect(trackEffectOf({ flag: "labelChanged" }, {})).toBeNull();
  });
});
