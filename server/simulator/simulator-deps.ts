import type { Clock } from "../platform/clock/clock.ts";
import type { DbClient } from "../platform/db/client.ts";
import type { Runtime } from "../runtime.ts";

/** What every simulator function needs; `simulatorDeps(runtime)` builds it. */
export type SimulatorDeps = { db: DbClient; clock: Clock; portalUrl: string; liveVideoDurationS: number };

export const simulatorDeps = (runtime: Pick<Runtime, "db" | "clock" | "env">): SimulatorDeps => ({
  db: runtime.db,
  clock: runtime.clock,
  portalUrl: runtime.env.PORTAL_URL,
  liveVideoDurationS: runtime.env.LIVE_VIDEO_DURATION_S,
});

/** Every change the simulator makes is recorded with this actor (the timeline shows it). */
export const SIMULATOR_ACTOR = "simulator";
