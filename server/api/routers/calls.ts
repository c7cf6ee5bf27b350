// The client half of an integration (docs/api-calls.md): what partner clients called, the verdict
// on each client, and the faults injected for them.
// Who may call: viewers read the list, a call without its bodies, verdicts and faults; integrators
// and admins also read bodies and set and clear faults (state changes: same-origin JSON only, the
// request guard).
import { z } from "zod";
import { createTRPCRouter, integratorProcedure, viewerProcedure } from "../trpc.ts";
import { clientReport, getCall, listCalls, ZListCallsInput } from "../../client-calls/list-calls.ts";
import { clientVerdicts } from "../../client-calls/client-verdicts.ts";
import {
  clearClientFaults,
  describeClientFault,
  listClientFaults,
  setClientFault,
} from "../../client-calls/client-faults.ts";
import { forgetClientFaults } from "../../client-calls/current-faults.ts";
import { CALL_SURFACES } from "../../client-calls/call-record.ts";
import { roleAllows } from "../../workbench/access/roles.ts";

const ZSince = z.enum(["15m", "1h", "6h", "24h", "7d"]).default("24h");
const SINCE_MS = { "15m": 15 * 60_000, "1h": 3_600_000, "6h": 6 * 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 };

export const callsRouter = createTRPCRouter({
  list: viewerProcedure.input(ZListCallsInput).query(({ ctx, input }) => listCalls({ ...ctx, input })),
  /** One call; its bodies for an integrator or admin only. */
  get: viewerProcedure
    .input(z.object({ id: z.string().regex(/^\d{1,19}$/, "a call id (a number)") }))
    .query(({ ctx, input }) =>
      getCall({ ...ctx, id: input.id, withBodies: roleAllows(ctx.caller.role, "integrator") }),
    ),
  /** Every client seen in the window, with its verdict. */
  verdicts: viewerProcedure
    .input(z.object({ within: z.enum(["15m", "1h", "6h", "24h"]).default("1h") }).strict())
    .query(({ ctx, input }) => clientVerdicts({ ...ctx, within: input.within })),
  /** A client's verdict and every piece of advice since `since` (`workbench client-report`). */
  report: viewerProcedure
    .input(z.object({ clientId: z.string().trim().min(1).max(64), since: ZSince }).strict())
    .query(({ ctx, input }) =>
      clientReport({ ...ctx, clientId: input.clientId, sinceMs: ctx.clock.nowMs() - SINCE_MS[input.since] }),
    ),
  faults: createTRPCRouter({
    list: viewerProcedure.query(async ({ ctx }) =>
      (await listClientFaults(ctx)).map((f) => ({ ...f, description: describeClientFault(f, ctx.clock.nowMs()) })),
    ),
    set: integratorProcedure
      .input(
        z
          .object({
            clientId: z.string().trim().max(64).nullable().optional(),
            surface: z.enum(CALL_SURFACES),
            operation: z.string().trim().max(200).nullable().optional(),
            mode: z.string().trim().min(1).max(20),
            for: z.string().trim().max(20).optional(),
            count: z.number().int().optional(),
            percent: z.number().int().optional(),
            retryAfterS: z.number().int().optional(),
          })
          .strict(),
      )
      .mutation(async ({ ctx, input }) => {
        const fault = await setClientFault({ ...ctx, input, createdBy: ctx.caller.name });
        forgetClientFaults(ctx.db);
        return fault ? { ...fault, description: describeClientFault(fault, ctx.clock.nowMs()) } : null;
      }),
    /** One fault by id, or every fault. */
    clear: integratorProcedure
      .input(z.object({ id: z.uuid().optional() }).strict())
      .mutation(async ({ ctx, input }) => {
        const cleared = await clearClientFaults({ db: ctx.db, id: input.id });
        forgetClientFaults(ctx.db);
        return { cleared };
      }),
  }),
});
