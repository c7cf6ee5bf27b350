// Which contract a lane was planned under (the v2 → v3 cutover, Versioning rule 3). A
// lane planned for v1/v2 carries a marker entry "@contract:v2" in fullTracks (a
// value no location source can take; no schema change to the v3 lane model).
// When an integration's major version changes (its /about said 3.x instead of
// 2.x), the lane is treated as new, so the first event under the new contract is
// its create-and-track sequence (rule 6): the receiver's v3 side learns the
// whole incident once, nothing is lost, and no event is sent twice. Deciding
// from the lane row itself, inside the planning statement, leaves no window in
// which a concurrent change could be planned against the other contract's lane.
// The lane's events of the old contract still queued are superseded, never sent,
// and a lane that had any is introduced under the new contract at once (decision
// 0049, supersede-queued-events.ts).
import type { TLocationSource } from "../../incidents/snapshot.schema.ts";
import { NEW_LANE, type LaneState } from "./plan-events.ts";

const MARKER = /^@contract:v(\d)$/;

export const legacyMarker = (major: 1 | 2) => `@contract:v${major}`;

/** The contract a stored lane was planned under: its marker's, else v3. */
export function laneMajorOf(stored: { fullTracks: string[] }): number {
  const marker = stored.fullTracks.map((s) => MARKER.exec(s)).find(Boolean);
  return marker ? Number(marker[1]) : 3;
}

/** The lane as the planner of `major` sees it: its own lane without the marker, or a new lane after a version switch. */
export function laneForMajor(stored: { introduced: boolean; fullTracks: string[] }, major: 1 | 2 | 3): LaneState {
  if (laneMajorOf(stored) !== major) return NEW_LANE;
  return {
    introduced: stored.introduced,
    fullTracks: stored.fullTracks.filter((s) => !MARKER.test(s)) as TLocationSource[],
  };
}

/** The lane to store after planning for `major`. */
export function laneToStore(lane: LaneState, major: 1 | 2 | 3): { introduced: boolean; fullTracks: string[] } {
  return major === 3 ? lane : { introduced: lane.introduced, fullTracks: [...lane.fullTracks, legacyMarker(major)] };
}
