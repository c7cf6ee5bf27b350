// The dashboard's view of what the inbound API produced: simulated SMS,
// one incident's state and change records. (The OpenAPI document is the /v1
// app's own: GET /v1/openapi.json, and the API page renders it on the server.)
import { z } from "zod";
import { viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { listSms } from "../../incidents/location-sms.ts";
import { readIncident } from "../../incidents/read-incident.ts";

export const inboundRouter = createTRPCRouter({
  smsList: viewerProcedure
    .input(z.object({ incidentId: z.uuid().optional(), take: z.number().int().min(1).max(500).optional() }).optional())
    .query(({ ctx, input }) => listSms({ db: ctx.db, incidentId: input?.incidentId, take: input?.take })),
  incident: viewerProcedure.input(z.object({ incidentId: z.uuid() })).query(async ({ ctx, input }) => {
    const incident = await readIncident({ db: ctx.db, incidentId: input.incidentId });
    if (!incident) return null;
    const changes = await ctx.db.incidentChange.findMany({
      where: { incidentId: input.incidentId },
      orderBy: { seq: "asc" },
      select: { seq: true, kind: true, payload: true, producedAt: true, actor: true },
    });
    return { ...incident, changes };
  }),
});
