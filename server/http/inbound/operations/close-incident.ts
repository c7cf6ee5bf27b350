// POST /v1/incidents/{incidentId}/close — afterwards every change is 409 IncidentClosed.
import { createRoute } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { closeIncident } from "../../../incidents/close-incident.ts";
import type { InboundApp } from "../inbound-env.ts";
import { ZIncidentIdParam, errorResponses, json } from "./common.schema.ts";
import { ZCloseResponse } from "./caller-actions.schema.ts";
import { bodySteps } from "../accept-json.ts";
import { onIncident } from "./incident-steps.ts";
import { scoped } from "./scoped-route.ts";

const route = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents/{incidentId}/close",
    tags: ["Incidents"],
    operationId: "closeIncident",
    summary: "Close the incident",
    description:
      "Token context: agency and user. Scope: `incident.close`. No body. Closing is a once-only transition: a second close, like every other change after it, is 409 IncidentClosed. An active live video ends with the incident.",
    middleware: bodySteps(false),
    request: { params: ZIncidentIdParam },
    responses: { 200: json(ZCloseResponse, "Closed"), ...errorResponses("incident", [], false) },
  }),
);

export function registerCloseIncident(app: InboundApp, runtime: Runtime) {
  app.openapi(route, async (c) => {
    const applied = await closeIncident(onIncident(runtime, c));
    return c.json(applied.result, 200);
  });
}
