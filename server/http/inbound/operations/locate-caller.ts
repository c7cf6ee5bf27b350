// POST /v1/incidents/{incidentId}/caller/locate — "sends" a location-link SMS
// to caller.phoneNumber. Simulated: recorded and listed in the dashboard and by
// `workbench sms list`; the simulator opens it to share a MobileAppSms fix.
import { createRoute } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { sendLocationSms } from "../../../incidents/location-sms.ts";
import type { InboundApp } from "../inbound-env.ts";
import { ZIncidentIdParam, errorResponses, json } from "./common.schema.ts";
import { ZLocateResponse } from "./caller-actions.schema.ts";
import { bodySteps } from "../accept-json.ts";
import { onIncident } from "./incident-steps.ts";
import { scoped } from "./scoped-route.ts";

const route = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents/{incidentId}/caller/locate",
    tags: ["Caller"],
    operationId: "locateCaller",
    summary: "Send a location-link SMS to the caller",
    description:
      "Token context: agency and user. Scope: `incident.caller.locate`. No body. Answers 202: the SMS is queued (in the workbench it is simulated, recorded and shown in the dashboard; opening its link in the simulator yields a Measured location with source MobileAppSms). Every call sends a new SMS. An incident without a caller phone number answers 400 CallerPhoneNumberRequired.",
    middleware: bodySteps(false),
    request: { params: ZIncidentIdParam },
    responses: {
      202: json(ZLocateResponse, "SMS accepted for sending"),
      ...errorResponses("incident", ["CallerPhoneNumberRequired"], false),
    },
  }),
);

export function registerLocateCaller(app: InboundApp, runtime: Runtime) {
  app.openapi(route, async (c) => {
    const options = onIncident(runtime, c);
    const applied = await sendLocationSms({
      ...options,
      portalUrl: runtime.env.PORTAL_URL,
      agencyId: options.access.agencyId,
    });
    return c.json(applied.result, 202);
  });
}
