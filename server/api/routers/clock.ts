import { z } from "zod";
import { adminProcedure, viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { advanceClock, describeClock, resetClock } from "../../workbench/clock-control.ts";

export const clockRouter = createTRPCRouter({
  show: viewerProcedure.query(({ ctx }) => describeClock(ctx.clock)),
  advance: adminProcedure
    .input(z.object({ byMs: z.number().int().positive() }))
    .mutation(({ ctx, input }) => advanceClock({ db: ctx.db, clock: ctx.clock, byMs: input.byMs })),
  reset: adminProcedure.mutation(({ ctx }) => resetClock({ db: ctx.db, clock: ctx.clock })),
});
