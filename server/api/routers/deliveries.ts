import { z } from "zod";
import { createTRPCRouter, publicProcedure } from "../trpc.ts";
import { listDeliveries, ZListDeliveriesInput } from "../../webhooks/admin/list-deliveries.ts";
import { resendIncident } from "../../webhooks/admin/resend-incident.ts";

export const deliveriesRouter = createTRPCRouter({
  list: publicProcedure.input(ZListDeliveriesInput).query(({ ctx, input }) => listDeliveries({ db: ctx.db, input })),
  resend: publicProcedure
    .input(z.object({ incidentId: z.uuid(), integration: z.string().min(1).optional() }))
    .mutation(({ ctx, input }) => resendIncident({ runtime: ctx, incidentId: input.incidentId, integrationKey: input.integration })),
});
