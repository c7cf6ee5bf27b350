import { z } from "@hono/zod-openapi";

const ZAgencyRef = z.object({ id: z.uuid(), displayName: z.string(), type: z.enum(["Psap", "Ems", "Fire"]) });

export const ZAgencyInfoResponse = z
  .object({
    id: z.uuid(),
    displayName: z.string(),
    type: z.enum(["Psap", "Ems", "Fire"]),
    relatedAgencies: z.array(ZAgencyRef).openapi({
      description: "The agencies this agency may invite (POST /v1/incidents/{incidentId}/involved-agencies).",
    }),
  })
  .openapi("AgencyInfo", {
    example: {
      id: "0b0c5b52-1c0e-4a57-9a57-000000000001",
      displayName: "North PSAP",
      type: "Psap",
      relatedAgencies: [{ id: "0b0c5b52-1c0e-4a57-9a57-000000000002", displayName: "Central EMS", type: "Ems" }],
    },
  });
