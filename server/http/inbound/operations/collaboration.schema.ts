import { z } from "@hono/zod-openapi";

export const ZInviteRequest = z
  .strictObject({ agencyId: z.uuid().openapi({ description: "One of GET /v1/agency/info relatedAgencies." }) })
  .openapi("InviteAgencyRequest", { example: { agencyId: "0b0c5b52-1c0e-4a57-9a57-000000000002" } });

export const ZInvolvedAgency = z
  .object({
    id: z.uuid(),
    displayName: z.string(),
    collaboration: z.enum(["Owner", "Pending", "Accepted", "Declined"]),
    invitedBy: z.object({ id: z.uuid(), displayName: z.string() }).nullable(),
  })
  .openapi("InvolvedAgency", {
    example: {
      id: "0b0c5b52-1c0e-4a57-9a57-000000000002",
      displayName: "Central EMS",
      collaboration: "Pending",
      invitedBy: { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP" },
    },
  });
