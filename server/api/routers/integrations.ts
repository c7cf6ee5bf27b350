import { z } from "zod";
import { adminProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import {
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
});
