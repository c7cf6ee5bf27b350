import type { SimulatorDeps } from "../simulator-deps.ts";

export type ScenarioContext = SimulatorDeps & {
  /** Incidents the run raised, in order (the run view lists them). */
  incidentIds: string[];
  /** The first incident raised (throws before one exists). */
  incidentId: () => string;
};

/** A step does one thing and may say what happened (shown under its progress bar). */
export type ScenarioStep = { title: string; run: (ctx: ScenarioContext) => Promise<string | void> };
export type Scenario = { title: string; description: string; steps: ScenarioStep[] };

/** A spot in the seed's northern half (North PSAP, Central EMS, Fire and Rescue cover it). */
export const NORTH_SPOT = { latitude: 59.962, longitude: 10.768 };
