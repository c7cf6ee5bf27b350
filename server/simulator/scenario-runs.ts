// Scenario runs: a scenario is a list of named steps; a run executes them in
// order and keeps per-step progress for the Simulator page, the CLI and tests.
// Runs live in a globalThis slot (Next bundles app/ separately) and are kept
// in memory only: they are a demonstration aid, the changes themselves are in
// the database. The last 50 runs are kept.
import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import { isAppError } from "../platform/errors.ts";
import { SCENARIOS, type ScenarioContext, type ScenarioKey } from "./scenarios/index.ts";
import type { SimulatorDeps } from "./simulator-deps.ts";
import { processSingleton } from "../platform/process-singleton.ts";

export type StepState = "pending" | "running" | "done" | "failed";
export type ScenarioRunView = {
  id: string;
  scenario: ScenarioKey;
  title: string;
  state: "running" | "done" | "failed";
  startedAtUtc: string;
  finishedAtUtc: string | null;
  incidentIds: string[];
  error: string | null;
  steps: Array<{ title: string; state: StepState; detail: string | null; finishedAtUtc: string | null }>;
};

type RunEvents = { "run:updated": [ScenarioRunView] };
type Registry = { runs: Map<string, ScenarioRunView>; events: EventEmitter<RunEvents> };
const registry = (): Registry =>
  processSingleton("scenario-runs", () => ({
    runs: new Map(),
    events: new EventEmitter<RunEvents>().setMaxListeners(100),
  }));

export const scenarioRunEvents = () => registry().events;
export const readScenarioRun = (id: string) => registry().runs.get(id) ?? null;
export const listScenarioRuns = () => [...registry().runs.values()].reverse();

/** Starts a run and returns at once; `done` settles when it finishes (tests, the CLI's --wait). */
export function startScenarioRun(options: SimulatorDeps & { scenario: ScenarioKey }): {
  run: ScenarioRunView;
  done: Promise<ScenarioRunView>;
} {
  const scenario = SCENARIOS[options.scenario];
  const run: ScenarioRunView = {
    id: randomUUID(),
    scenario: options.scenario,
    title: scenario.title,
    state: "running",
    startedAtUtc: options.clock.now().toISOString(),
    finishedAtUtc: null,
    incidentIds: [],
    error: null,
    steps: scenario.steps.map((s) => ({ title: s.title, state: "pending", detail: null, finishedAtUtc: null })),
  };
  const { runs } = registry();
  runs.set(run.id, run);
  while (runs.size > 50) runs.delete(runs.keys().next().value!);
  return { run: structuredClone(run), done: execute(options, run) };
}

async function execute(deps: SimulatorDeps, run: ScenarioRunView): Promise<ScenarioRunView> {
  const ctx: ScenarioContext = {
    ...deps,
    incidentIds: run.incidentIds,
    incidentId: () => {
      const id = run.incidentIds[0];
      if (!id) throw new Error("no incident raised yet");
      return id;
    },
  };
  const steps = SCENARIOS[run.scenario].steps;
  const update = () => registry().events.emit("run:updated", structuredClone(run));
  for (const [i, step] of steps.entries()) {
    const view = run.steps[i]!;
    view.state = "running";
    update();
    try {
      view.detail = (await step.run(ctx)) ?? null;
      view.state = "done";
    } catch (error) {
      view.state = "failed";
      view.detail = isAppError(error) || error instanceof Error ? error.message : String(error);
      run.state = "failed";
      run.error = `Step ${i + 1} (${step.title}) failed: ${view.detail}`;
    }
    view.finishedAtUtc = deps.clock.now().toISOString();
    if (run.state === "failed") break;
    update();
  }
  if (run.state !== "failed") run.state = "done";
  run.finishedAtUtc = deps.clock.now().toISOString();
  update();
  return structuredClone(run);
}
