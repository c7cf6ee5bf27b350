import { describe, expect, it } from "vitest";
import { diffReplica } from "./diff-replica.ts";
import { knownLocation, makeSnapshot } from "./testing/snapshot-fixture.ts";

describe("diffReplica", () => {
  it("finds nothing between equal snapshots", () => {
    const s = makeSnapshot();
    expect(diffReplica(s, structuredClone(s))).toEqual([]);
  });

  it("names a missing appended location by its track's source (the hole after an expired append)", () => {
    const platform = makeSnapshot();
    platform.caller.tracks = [
      { source: "Entered", track: [knownLocation(1, 1), knownLocation(2, 2), knownLocation(3, 3)] },
    ];
    const replica = structuredClone(platform);
    replica.caller.tracks[0]!.track.splice(1, 1);
    const d = diffReplica(replica, platform);
    expect(d.map((x) => x.path)).toEqual(
      expect.arrayContaining(["caller.tracks[Entered].track[1].latitude", "caller.tracks[Entered].track[2]"]),
    );
    expect(d.find((x) => x.path === "caller.tracks[Entered].track[2]")).toEqual({
      path: "caller.tracks[Entered].track[2]",
      replica: undefined,
      platform: knownLocation(3, 3),
    });
  });

  it("matches agencies by id whatever their order, and tells a missing key from null", () => {
    const platform = makeSnapshot({ label: null });
    platform.involvedAgencies.push({
      id: "0b0c5b52-1c0e-4a57-9a57-000000000002",
      displayName: "Central EMS",
      collaboration: "Pending",
      invitedBy: null,
    });
    const replica = structuredClone(platform) as Record<string, unknown> & typeof platform;
    replica.involvedAgencies.reverse();
    delete (replica as Record<string, unknown>).label;
    expect(diffReplica(replica, platform)).toEqual([{ path: "label", replica: "(missing)", platform: null }]);
  });
});
