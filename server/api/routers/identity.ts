import { z } from "zod";
import { adminProcedure, integratorProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { createClient, listClients, rotateClientSecret, ZCreateClientInput } from "../../identity/manage-clients.ts";
import { listSigningKeys } from "../../identity/list-signing-keys.ts";
import { inspectToken } from "../../identity/inspect-token.ts";

export const identityRouter = createTRPCRouter({
  keys: createTRPCRouter({
    list: viewerProcedure.query(({ ctx }) => listSigningKeys(ctx)),
    rotate: adminProcedure.mutation(({ ctx }) => ctx.keys.rotate()),
  }),
  clients: createTRPCRouter({
    list: viewerProcedure.query(({ ctx }) => listClients(ctx)),
    create: adminProcedure.input(ZCreateClientInput).mutation(({ ctx, input }) => createClient({ ...ctx, input })),
    rotateSecret: adminProcedure
      .input(z.object({ clientId: z.string().min(1) }))
      .mutation(({ ctx, input }) => rotateClientSecret({ ...ctx, ...input })),
  }),
  tokens: createTRPCRouter({
    // A mutation so the pasted token travels in a POST body, never in a GET query string.
    inspect: integratorProcedure
      .input(z.object({ token: z.string().min(1).max(20_000) }))
      .mutation(({ ctx, input }) => inspectToken({ ...ctx, ...input })),
  }),
});
