// Retention (docs/retention.md): what the workbench keeps, how much disk it takes, and the pruner's
// last run. Admin only: table sizes describe the whole workbench, and a run deletes data.
import { adminProcedure, createTRPCRouter } from "../trpc.ts";
import { pruneOldData } from "../../workbench/retention/prune-old-data.ts";
import { readRetentionStatus } from "../../workbench/retention/read-retention-status.ts";

export const retentionRouter = createTRPCRouter({
  status: adminProcedure.query(({ ctx }) =>
    readRetentionStatus({ db: ctx.db, nowMs: ctx.clock.nowMs(), retentionDays: ctx.env.RETENTION_DAYS }),
  ),
  /** A run now, as the worker's (skipped while another process runs one). */
  pruneNow: adminProcedure.mutation(async ({ ctx }) => {
    const outcome = await pruneOldData({
      db: ctx.db,
      clock: ctx.clock,
      retentionDays: ctx.env.RETENTION_DAYS,
      logger: ctx.logger,
    });
    return outcome.ran ? { ran: true as const, pruned: outcome.pruned } : outcome;
  }),
});
