import { z } from "zod";
import { createTRPCRouter, publicProcedure } from "../trpc.ts";
import { createClient, listClients, rotateClientSecret, ZCreateClientInput } from "../../identity/manage-clients.ts";
import { listSigningKeys } from "../../identity/list-signing-keys.ts";
import { inspectToken } from "../../identity/inspect-token.ts";

export const identityRouter = createTRPCRouter({
  keys: createTRPCRouter({
    list: publicProcedure.query(({ ctx }) => listSigningKeys(ctx)),
    rotate: publicProcedure.mutation(({ ctx }) => ctx.keys.rotate()),
  }),
  clients: createTRPCRouter({
    list: publicProcedure.query(({ ctx }) => listClients(ctx)),
    create: publicProcedure.input(ZCreateClientInput).mutation(({ ctx, input }) => createClient({ ...ctx, input })),
    rotateSecret: publicProcedure.input(z.object({ clientId: z.string().min(1) })).mutation(({ ctx, input }) => rotateClientSecret({ ...ctx, ...input })),
  }),
  tokens: createTRPCRouter({
    // A mutation so the pasted token travels in a POST body, never in a GET query string.
    inspect: publicProcedure.input(z.object({ token: z.string().min(1).max(20_000) })).mutation(({ ctx, input }) => inspectToken({ ...ctx, ...input })),
  }),
});
