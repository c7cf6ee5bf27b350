// The cutover decision for one lane (Versioning rule 3, Delivery rule 7, decision 0049), table-tested
// across every pair of major versions: what is superseded, and whether the lane is introduced again.
import { describe, expect, it } from "vitest";
import { decideCutover, type UnfinishedEvent } from "./decide-cutover.ts";

const ID = "0e7f0000-0000-4000-8000-0000000000c1";
const path = (major: number, tail = "") =>
  major === 3 ? `/v3/incidents${tail && `/${ID}${tail}`}` : `/v${major}/incident${tail && `/${ID}${tail}`}`;
const pending = (id: number, major: number, tail = ""): UnfinishedEvent => ({
  id: BigInt(id),
  state: "pending",
  path: path(major, tail),
});
const delivering = (id: number, major: number, tail = ""): UnfinishedEvent => ({
  ...pending(id, major, tail),
  state: "delivering",
});
const MAJORS = [1, 2, 3] as const;

describe("decideCutover", () => {
  it("supersedes every queued event of another contract and introduces the lane under the accepted one (every major change)", () => {
    for (const from of MAJORS)
      for (const to of MAJORS.filter((m) => m !== from)) {
        const unfinished = [pending(1, from), pending(2, from, "/position"), pending(3, from, "/position")];
        expect({ from, to, ...decideCutover({ acceptedMajor: to, laneMajor: from, unfinished }) }).toEqual({
          from,
          to,
          supersede: [1n, 2n, 3n],
          introduce: true,
        });
      }
  });

  it("leaves an event in flight to finish as it is, and introduces the lane behind it", () => {
    for (const [from, to] of [
      [2, 3],
      [3, 2],
      [1, 3],
      [3, 1],
    ] as const) {
      const unfinished = [delivering(7, from, "/position"), pending(8, from)];
      expect(decideCutover({ acceptedMajor: to, laneMajor: from, unfinished })).toEqual({
        supersede: [8n],
        introduce: true,
      });
      expect(decideCutover({ acceptedMajor: to, laneMajor: from, unfinished: [delivering(7, from)] })).toEqual({
        supersede: [],
        introduce: true,
      });
    }
  });

  it("does not introduce a lane a change already started anew under the accepted contract (its create-and-track is queued)", () => {
    const unfinished = [pending(1, 2), pending(2, 3), pending(3, 3, "/caller/track")];
    expect(decideCutover({ acceptedMajor: 3, laneMajor: 3, unfinished })).toEqual({
      supersede: [1n],
      introduce: false,
    });
  });

  it("leaves a lane alone when nothing of another contract is unfinished", () => {
    for (const to of MAJORS) {
      expect(decideCutover({ acceptedMajor: to, laneMajor: to, unfinished: [pending(1, to)] })).toEqual({
        supersede: [],
        introduce: false,
      });
      // Planned under another contract but nothing queued: its next change starts the accepted one.
      const other = to === 3 ? 2 : 3;
      expect(decideCutover({ acceptedMajor: to, laneMajor: other, unfinished: [] })).toEqual({
        supersede: [],
        introduce: false,
      });
    }
  });

  it("introduces the lane when the event just superseded on its outcome was its last of another contract", () => {
    expect(decideCutover({ acceptedMajor: 3, laneMajor: 1, unfinished: [], supersededClaimed: true })).toEqual({
      supersede: [],
      introduce: true,
    });
    expect(decideCutover({ acceptedMajor: 1, laneMajor: 1, unfinished: [], supersededClaimed: true })).toEqual({
      supersede: [],
      introduce: false,
    });
  });

  it("treats events planned for the integration's earlier receiver as another contract's, whatever their major (decision 0062)", () => {
    for (const major of MAJORS) {
      // Rows 1–3 were planned before the URL moved (movedAfterId 3), row 4 after; the move reset the lane.
      const unfinished = [delivering(1, major), pending(2, major, "/position"), pending(3, major), pending(4, major)];
      expect(
        decideCutover({ acceptedMajor: major, laneMajor: major, laneIntroduced: false, movedAfterId: 3n, unfinished }),
      ).toEqual({ supersede: [2n, 3n], introduce: true });
      // A change since the acceptance introduced the lane already: its create-and-track is queued behind.
      expect(
        decideCutover({ acceptedMajor: major, laneMajor: major, laneIntroduced: true, movedAfterId: 3n, unfinished }),
      ).toEqual({ supersede: [2n, 3n], introduce: false });
      // Nothing left from before the move: the lane is left alone.
      expect(
        decideCutover({
          acceptedMajor: major,
          laneMajor: major,
          laneIntroduced: false,
          movedAfterId: 3n,
          unfinished: [pending(4, major)],
        }),
      ).toEqual({ supersede: [], introduce: false });
    }
  });
});
