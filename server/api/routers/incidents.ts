// Incidents for the dashboard (integrators): list and one incident with its change timeline.
import { z } from "zod";
import { viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { listIncidentChanges, listIncidents, ZListIncidentsInput } from "../../incidents/list-incidents.ts";
import { readIncident } from "../../incidents/read-incident.ts";

export const incidentsRouter = createTRPCRouter({
  list: viewerProcedure.input(ZListIncidentsInput).query(({ ctx, input }) => listIncidents({ db: ctx.db, input })),
  detail: viewerProcedure.input(z.object({ incidentId: z.uuid() })).query(async ({ ctx, input }) => {
    const incident = await readIncident({ db: ctx.db, incidentId: input.incidentId });
    if (!incident) return null;
    const changes = await listIncidentChanges({ db: ctx.db, incidentId: input.incidentId });
    return {
      id: incident.id,
      purpose: incident.purpose,
      version: incident.version,
      closedAtUtc: incident.closedAt?.toISOString() ?? null,
      snapshot: incident.snapshot,
      changes,
    };
  }),
});
