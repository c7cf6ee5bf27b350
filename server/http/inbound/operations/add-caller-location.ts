// POST /v1/incidents/{incidentId}/caller/track — appends a dispatcher-established
// position: a Known location with source Entered (never edited or removed).
import { createRoute } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { addEnteredLocation } from "../../../incidents/caller-track.ts";
import type { InboundApp } from "../inbound-env.ts";
import { ZGeoPointBody, ZIncidentIdParam, errorResponses, json, jsonBody } from "./common.schema.ts";
import { ZTrackResponse } from "./caller-actions.schema.ts";
import { bodySteps } from "../accept-json.ts";
import { onIncident } from "./incident-steps.ts";
import { scoped } from "./scoped-route.ts";

const route = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents/{incidentId}/caller/track",
    tags: ["Caller"],
    operationId: "addCallerLocation",
    summary: "Append a dispatcher-established caller position",
    description:
      "Token context: agency and user. Scope: `incident.caller.track`. The GeoPoint is appended to the caller's Entered track as a Known location (capturedAtUtc = receivedAtUtc = now on the workbench clock). A later one supersedes it for display; none is ever edited or removed.",
    middleware: bodySteps(true),
    request: { params: ZIncidentIdParam, body: jsonBody(ZGeoPointBody) },
    responses: { 201: json(ZTrackResponse, "Appended"), ...errorResponses("incident", [], true) },
  }),
);

export function registerAddCallerLocation(app: InboundApp, runtime: Runtime) {
  app.openapi(route, async (c) => {
    const applied = await addEnteredLocation({ ...onIncident(runtime, c), point: c.req.valid("json") });
    return c.json({ location: applied.result }, 201);
  });
}
