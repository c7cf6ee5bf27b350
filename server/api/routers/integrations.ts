import { z } from "zod";
import { createTRPCRouter, publicProcedure } from "../trpc.ts";
import { listIntegrations, rediscoverIntegration, setIntegration, ZSetIntegrationInput } from "../../webhooks/admin/manage-integrations.ts";

export const integrationsRouter = createTRPCRouter({
  list: publicProcedure.query(({ ctx }) => listIntegrations({ runtime: ctx })),
  set: publicProcedure.input(ZSetIntegrationInput).mutation(({ ctx, input }) => setIntegration({ runtime: ctx, input })),
  rediscover: publicProcedure.input(z.object({ key: z.string().min(1) })).mutation(({ ctx, input }) => rediscoverIntegration({ runtime: ctx, key: input.key })),
});
