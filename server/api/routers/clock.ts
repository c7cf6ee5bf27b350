import { z } from "zod";
import { createTRPCRouter, publicProcedure } from "../trpc.ts";
import { advanceClock, describeClock, resetClock } from "../../workbench/clock-control.ts";

export const clockRouter = createTRPCRouter({
  show: publicProcedure.query(({ ctx }) => describeClock(ctx.clock)),
  advance: publicProcedure
    .input(z.object({ byMs: z.number().int().positive() }))
    .mutation(({ ctx, input }) => advanceClock({ db: ctx.db, clock: ctx.clock, byMs: input.byMs })),
  reset: publicProcedure.mutation(({ ctx }) => resetClock({ db: ctx.db, clock: ctx.clock })),
});
