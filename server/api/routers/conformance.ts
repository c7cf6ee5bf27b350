// The conformance kit runs inside the workbench (it alone holds the signing
// keys the receiver's JWKS lookup resolves); the dashboard and the CLI start a
// run here and poll it.
import { z } from "zod";
import { integratorProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { CONFORMANCE_CHECKS } from "../../conformance/conformance-checks.ts";
import { getConformanceRun, listConformanceRuns } from "../../conformance/list-conformance-runs.ts";
import { startConformanceRun } from "../../conformance/start-conformance-run.ts";

export const conformanceRouter = createTRPCRouter({
  /** The checks a run makes, in order (ids, groups, titles, required). */
  checks: viewerProcedure.query(() =>
    CONFORMANCE_CHECKS.map(({ id, group, title, required }) => ({ id, group, title, required })),
  ),
  start: integratorProcedure
    .input(
      z.object({
        receiverUrl: z.string().min(1).max(2000),
        agencyId: z.uuid().optional(),
        insecureDev: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { id } = await startConformanceRun(ctx, input);
      return { id };
    }),
  get: viewerProcedure
    .input(z.object({ id: z.uuid() }))
    .query(({ ctx, input }) => getConformanceRun({ db: ctx.db, clock: ctx.clock, id: input.id })),
  history: viewerProcedure
    .input(z.object({ limit: z.number().int().min(1).max(100).default(20) }).default({ limit: 20 }))
    .query(({ ctx, input }) => listConformanceRuns({ db: ctx.db, clock: ctx.clock, limit: input.limit })),
});
