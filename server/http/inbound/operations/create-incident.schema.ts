import { z } from "@hono/zod-openapi";
import { TEXT_LIMITS, ZGeoPointBody, ZPhoneNumber, nullableText } from "./common.schema.ts";

export const ZCreateIncidentRequest = z
  .strictObject({
    routingMode: z.enum(["TokenAgency", "Jurisdiction"]).openapi({
      description:
        "TokenAgency: the incident belongs to the token agency. Jurisdiction: to the agencies whose area holds caller.location.",
    }),
    requestedIncidentId: z
      .uuid()
      .optional()
      .openapi({ description: "Caller-generated UUID; the only thing that makes creation repeatable." }),
    callId: z
      .uuid()
      .optional()
      .openapi({ description: "A call of the token agency (POST /v1/calls); another agency's is 404 CallNotFound." }),
    caller: z
      .strictObject({
        phoneNumber: ZPhoneNumber.optional().openapi({
          description:
            "Required in both routing modes (missing: 400 CallerPhoneNumberRequired); cannot be changed afterwards through this API.",
        }),
        location: ZGeoPointBody.optional().openapi({
          description:
            "Required for Jurisdiction. Stored as the first position of the caller's Entered track (a Known location).",
        }),
      })
      .optional(),
    preferredAgencyTypes: z
      .array(z.enum(["Psap", "Ems", "Fire"]))
      .max(3)
      .optional()
      .openapi({
        description:
          "Narrows Jurisdiction routing to these agency types (in this order of preference; the first agency becomes the owner). When no covering agency has a preferred type, every covering agency is kept. Ignored for TokenAgency.",
      }),
    label: nullableText(TEXT_LIMITS.label).optional(),
    summary: nullableText(TEXT_LIMITS.summary).optional(),
    callSign: nullableText(TEXT_LIMITS.callSign).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.routingMode === "Jurisdiction" && !body.caller?.location)
      ctx.addIssue({ code: "custom", path: ["caller", "location"], message: "required for routingMode Jurisdiction" });
  })
  .openapi("CreateIncidentRequest", {
    example: {
      routingMode: "TokenAgency",
      requestedIncidentId: "7d3c1e0a-5b7e-4c1f-9a52-1f1d3f0a9b11",
      caller: { phoneNumber: "+4791234567", location: { latitude: 59.97, longitude: 10.76 } },
      label: "Fall, elderly",
    },
  });

export const ZCreateIncidentResponse = z
  .object({
    incidentId: z.uuid(),
    openUrl: z.string().openapi({ description: "Portal URL of the incident; use as delivered." }),
    purpose: z.enum(["Real", "Test", "Demo"]),
    involvedAgencies: z.array(
      z.object({
        id: z.uuid(),
        displayName: z.string(),
        collaboration: z.enum(["Owner", "Pending", "Accepted", "Declined"]),
      }),
    ),
  })
  .openapi("CreatedIncident", {
    example: {
      incidentId: "7d3c1e0a-5b7e-4c1f-9a52-1f1d3f0a9b11",
      openUrl: "http://localhost:3000/portal/incidents/7d3c1e0a-5b7e-4c1f-9a52-1f1d3f0a9b11",
      purpose: "Real",
      involvedAgencies: [
        { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP", collaboration: "Owner" },
      ],
    },
  });
