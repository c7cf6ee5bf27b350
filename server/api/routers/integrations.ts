import { z } from "zod";
import { adminProcedure, integratorProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import {
  detachIntegrationListener,
  listIntegrations,
  rediscoverIntegration,
  setIntegration,
  ZSetIntegrationInput,
} from "../../webhooks/admin/manage-integrations.ts";

export const integrationsRouter = createTRPCRouter({
  list: viewerProcedure.query(({ ctx }) => listIntegrations({ runtime: ctx })),
  set: adminProcedure.input(ZSetIntegrationInput).mutation(({ ctx, input }) => setIntegration({ runtime: ctx, input })),
  rediscover: adminProcedure
    .input(z.object({ key: z.string().min(1) }))
    .mutation(({ ctx, input }) => rediscoverIntegration({ runtime: ctx, key: input.key })),
  /** An integrator or admin gives an integration back to its receiver URL (docs/listen.md). */
  detachListener: integratorProcedure
    .input(z.object({ key: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => detachIntegrationListener({ runtime: ctx, key: input.key })),
});
