import { adminProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { resetToSeed } from "../../../prisma/seed.ts";
import { clearServiceTokenCache } from "../../webhooks/sending/service-token-cache.ts";

export const systemRouter = createTRPCRouter({
  info: viewerProcedure.query(({ ctx }) => ({
    publicUrl: ctx.env.PUBLIC_URL,
    authUrl: ctx.env.AUTH_URL,
    baseUrl: ctx.env.BASE_URL,
    portalUrl: ctx.env.PORTAL_URL,
    database: ctx.databaseMode,
  })),
  /** Dev data back to the seed of workbench-decisions.md (the clock is left as it is). */
  resetSeed: adminProcedure.mutation(async ({ ctx }) => {
    await resetToSeed({ db: ctx.db, clock: ctx.clock, publicUrl: ctx.env.PUBLIC_URL });
    // The reset drops the signing keys: cached outbound webhook tokens were signed by them (found by e2e/legacy-cutover.spec.ts).
    clearServiceTokenCache(ctx);
    ctx.logger.info("data reset to the seed");
    return { reset: true as const };
  }),
});
