// The simulator: caller-side actions, simulated incidents, scripted scenarios.
import { z } from "zod";
import { integratorProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { performSimulatorAction } from "../../simulator/perform-action.ts";
import { raiseSimulatedIncident } from "../../simulator/raise-incident.ts";
import { listChatMessages } from "../../simulator/chat-messages.ts";
import { listScenarioRuns, readScenarioRun, startScenarioRun } from "../../simulator/scenario-runs.ts";
import { SCENARIOS, SCENARIO_KEYS } from "../../simulator/scenarios/index.ts";
import { ZPerformActionInput, ZRaiseIncidentInput } from "../../simulator/simulator.schema.ts";
import { simulatorDeps } from "../../simulator/simulator-deps.ts";

export const simulatorRouter = createTRPCRouter({
  raise: integratorProcedure.input(ZRaiseIncidentInput).mutation(async ({ ctx, input }) => {
    const incident = await raiseSimulatedIncident({ ...simulatorDeps(ctx), input });
    return {
      incidentId: incident.id,
      purpose: incident.purpose,
      openUrl: incident.snapshot.openUrl,
      owner: incident.snapshot.involvedAgencies[0]?.displayName ?? null,
    };
  }),
  act: integratorProcedure
    .input(ZPerformActionInput)
    .mutation(({ ctx, input }) =>
      performSimulatorAction({ ...simulatorDeps(ctx), incidentId: input.incidentId, action: input.action }),
    ),
  scenarios: viewerProcedure.query(() =>
    SCENARIO_KEYS.map((key) => ({
      key,
      title: SCENARIOS[key].title,
      description: SCENARIOS[key].description,
      steps: SCENARIOS[key].steps.map((s) => s.title),
    })),
  ),
  runScenario: integratorProcedure.input(z.object({ scenario: z.enum(SCENARIO_KEYS) })).mutation(({ ctx, input }) => {
    const { run, done } = startScenarioRun({ ...simulatorDeps(ctx), scenario: input.scenario });
    // Failures are kept on the run (state "failed"), never thrown into the void.
    done.catch((error: unknown) => ctx.logger.error({ err: error, runId: run.id }, "scenario run crashed"));
    return run;
  }),
  scenarioRun: viewerProcedure.input(z.object({ runId: z.uuid() })).query(({ input }) => readScenarioRun(input.runId)),
  scenarioRuns: viewerProcedure.query(() => listScenarioRuns()),
  chatMessages: viewerProcedure
    .input(z.object({ incidentId: z.uuid() }))
    .query(({ ctx, input }) => listChatMessages({ db: ctx.db, incidentId: input.incidentId })),
});
