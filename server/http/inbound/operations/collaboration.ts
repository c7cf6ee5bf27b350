// Invite (POST …/involved-agencies) and resolve (POST …/collaboration/accept|decline).
// Scope incident.collaboration. An agency that accepted acts on the incident with
// its own user tokens; a Pending or Declined one sees it only to resolve.
import { createRoute } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { inviteAgency, resolveInvitation } from "../../../incidents/collaboration.ts";
import type { InboundApp } from "../inbound-env.ts";
import { ZIncidentIdParam, errorResponses, json, jsonBody } from "./common.schema.ts";
import { ZInviteRequest, ZInvolvedAgency } from "./collaboration.schema.ts";
import { bodySteps } from "../accept-json.ts";
import { onIncident } from "./incident-steps.ts";
import { scoped } from "./scoped-route.ts";

const inviteRoute = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents/{incidentId}/involved-agencies",
    tags: ["Collaboration"],
    operationId: "inviteAgency",
    summary: "Invite an agency to collaborate",
    description:
      "Token context: agency and user. Scope: `incident.collaboration`. The agency must be one of the token agency's relatedAgencies (else 400 AgencyNotAllowed). 201 with the new Pending involvement. 409 CollaborationInvitationPending while its invitation is open; 409 CollaborationAlreadyActive when it owns or accepted. An agency that declined may be invited again.",
    middleware: bodySteps(true),
    request: { params: ZIncidentIdParam, body: jsonBody(ZInviteRequest) },
    responses: {
      201: json(ZInvolvedAgency, "Invited (Pending)"),
      ...errorResponses(
        "incident",
        ["AgencyNotAllowed", "CollaborationInvitationPending", "CollaborationAlreadyActive"],
        true,
      ),
    },
  }),
);

const resolveRoute = (decision: "accept" | "decline") =>
  createRoute(
    scoped("user", {
      method: "post",
      path: `/v1/incidents/{incidentId}/collaboration/${decision}`,
      tags: ["Collaboration"],
      operationId: `${decision}Collaboration`,
      summary: `${decision === "accept" ? "Accept" : "Decline"} an invitation (the invited agency)`,
      description: `Token context: agency and user of the invited agency. Scope: \`incident.collaboration\`. No body. 200 with the agency's involvement, now ${decision === "accept" ? "Accepted (it can then act on the incident)" : "Declined"}. 409 NoPendingCollaborationInvitation when the token agency has no open invitation (e.g. it owns the incident); 409 CollaborationInvitationAlreadyResolved once accepted or declined. An agency never invited gets 404 IncidentNotFound.`,
      middleware: bodySteps(false),
      request: { params: ZIncidentIdParam },
      responses: {
        200: json(ZInvolvedAgency, "Resolved"),
        ...errorResponses(
          "incident",
          ["NoPendingCollaborationInvitation", "CollaborationInvitationAlreadyResolved"],
          false,
        ),
      },
    }),
  );

export function registerCollaboration(app: InboundApp, runtime: Runtime) {
  app.openapi(inviteRoute, async (c) => {
    const applied = await inviteAgency({ ...onIncident(runtime, c), invitedAgencyId: c.req.valid("json").agencyId });
    return c.json(applied.result, 201);
  });
  for (const decision of ["accept", "decline"] as const) {
    app.openapi(resolveRoute(decision), async (c) => {
      const applied = await resolveInvitation({
        ...onIncident(runtime, c),
        decision: decision === "accept" ? "Accepted" : "Declined",
      });
      return c.json(applied.result, 200);
    });
  }
}
