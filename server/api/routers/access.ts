// Who may use a shared workbench: the caller's own view (mode, name, role) and,
// for admins, members and API tokens.
import { z } from "zod";
import { adminProcedure, createTRPCRouter, viewerProcedure } from "../trpc.ts";
import {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  ZCreateApiTokenInput,
} from "../../workbench/access/api-tokens.ts";
import { devCredentialsAllowed } from "../../identity/dev-credentials.ts";
import {
  createMember,
  listMembers,
  updateMember,
  ZCreateMemberInput,
  ZPassword,
} from "../../workbench/access/members.ts";
import { ZRole } from "../../workbench/access/roles.ts";
import { clearGuessThrottle, listGuessThrottles } from "../../identity/guess-throttle.ts";

const ZGuessKind = z.enum(["member", "client"]);

export const accessRouter = createTRPCRouter({
  /** Who is calling and how the workbench is exposed (the Admin page and the header show it). */
  me: viewerProcedure.query(({ ctx }) => ({
    mode: ctx.env.ACCESS_MODE,
    devCredentials: devCredentialsAllowed(ctx.env) ? ("allowed" as const) : ("refused" as const),
    caller: { kind: ctx.caller.kind, name: ctx.caller.name, role: ctx.caller.role },
  })),
  members: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => listMembers(ctx)),
    create: adminProcedure.input(ZCreateMemberInput).mutation(({ ctx, input }) => createMember({ ...ctx, input })),
    update: adminProcedure
      .input(
        z.object({
          id: z.uuid(),
          role: ZRole.optional(),
          disabled: z.boolean().optional(),
          password: ZPassword.optional(),
        }),
      )
      .mutation(({ ctx, input }) => updateMember({ ...ctx, ...input })),
  }),
  /** What wrong guesses are slowing down now: accounts, (address, account) pairs, addresses (decisions 0051, 0070). */
  guessThrottles: adminProcedure.query(({ ctx }) => listGuessThrottles(ctx)),
  /**
   * Ends the waits and counts of a member or a client (`subject`), or of an address (`source`) with
   * the pairs it counts; says whether there were any.
   */
  clearGuessThrottle: adminProcedure
    .input(
      z.union([
        z.object({ kind: ZGuessKind, subject: z.string().trim().min(1).max(200) }).strict(),
        z.object({ kind: ZGuessKind, source: z.string().trim().min(1).max(100) }).strict(),
      ]),
    )
    .mutation(async ({ ctx, input }) => ({ cleared: await clearGuessThrottle(ctx, input) })),
  apiTokens: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => listApiTokens(ctx)),
    /** The token value is in this answer only: it is stored as a hash. */
    create: adminProcedure
      .input(ZCreateApiTokenInput)
      .mutation(({ ctx, input }) => createApiToken({ ...ctx, input, createdBy: ctx.caller.name })),
    revoke: adminProcedure
      .input(z.object({ id: z.uuid() }))
      .mutation(({ ctx, input }) => revokeApiToken({ ...ctx, id: input.id })),
  }),
});
