import { agencyCollaboration } from "./agency-collaboration.ts";
import { cardiacArrest } from "./cardiac-arrest.ts";
import { connectorTestIncident } from "./connector-test-incident.ts";
import { receiverOutage } from "./receiver-outage.ts";
import type { Scenario } from "./scenario.ts";

export type { ScenarioContext } from "./scenario.ts";

/** The scripted scenarios, by key (tRPC, `workbench simulate scenario KEY`). */
export const SCENARIOS = {
  "cardiac-arrest": cardiacArrest,
  "receiver-outage": receiverOutage,
  "agency-collaboration": agencyCollaboration,
  "connector-test-incident": connectorTestIncident,
} satisfies Record<string, Scenario>;

export type ScenarioKey = keyof typeof SCENARIOS;
export const SCENARIO_KEYS = Object.keys(SCENARIOS) as [ScenarioKey, ...ScenarioKey[]];
