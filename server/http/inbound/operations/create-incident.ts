// POST /v1/incidents — agency + user context, scope incident.create.
// Repeat handling (rules 3–4): 201 created; 200 with the same body when the
// token agency holds requestedIncidentId with the same routingMode and
// caller.phoneNumber as the incident now stands (other members are ignored,
// never rewritten); else 409 IncidentAlreadyExists. The database decides races.
import { createRoute, z } from "@hono/zod-openapi";
import { AppError } from "../../../platform/errors.ts";
import type { Runtime } from "../../../runtime.ts";
import { bodySteps } from "../accept-json.ts";
import { createIncident } from "../../../incidents/create-incident.ts";
import { etagOf, type IncidentState } from "../../../incidents/incident-state.ts";
import { findCall } from "../../../incidents/report-call.ts";
import { resolveJurisdiction } from "../../../incidents/resolve-jurisdiction.ts";
import { inboundActor, type InboundApp } from "../inbound-env.ts";
import { errorResponses, json, jsonBody } from "./common.schema.ts";
import { ZCreateIncidentRequest, ZCreateIncidentResponse } from "./create-incident.schema.ts";
import { scoped } from "./scoped-route.ts";
import { requestTrace } from "../../trace-requests.ts";
import { noteRecordedChanges } from "../../client-calls/call-context.ts";

const route = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents",
    tags: ["Incidents"],
    operationId: "createIncident",
    summary: "Create an incident (repeatable with requestedIncidentId)",
    description: [
      "Token context: agency and user (username.required + username). Scope: `incident.create`. purpose is always Real for partner-created incidents.",
      "Repeat: with requestedIncidentId, 201 when created, 200 with the same body when the token agency already holds that id with the same routingMode and caller.phoneNumber as the incident now stands (any other member is ignored, never rewritten), else 409 IncidentAlreadyExists. Concurrent repeats give exactly one 201.",
      "Jurisdiction: the agencies whose area holds caller.location (each involved as Owner; the first by preferredAgencyTypes, then Psap, Ems, Fire, owns it). A location outside every area is 400 ValidationFailed on caller.location. The creating agency acts on the incident only when it is among them.",
      "The response carries the incident's ETag (for If-Match on the PATCH operations).",
    ].join("\n\n"),
    middleware: bodySteps(true),
    request: { body: jsonBody(ZCreateIncidentRequest) },
    responses: {
      201: json(ZCreateIncidentResponse, "Created"),
      200: json(ZCreateIncidentResponse, "Matching repeat of requestedIncidentId (same body)"),
      ...errorResponses("user", ["CallerPhoneNumberRequired", "CallNotFound", "IncidentAlreadyExists"], true),
    },
  }),
);

type Body = z.infer<typeof ZCreateIncidentRequest>;

export function registerCreateIncident(app: InboundApp, runtime: Runtime) {
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const auth = c.get("auth");
    const phoneNumber = requirePhoneNumber(body);
    if (body.callId && !(await findCall({ db: runtime.db, agencyId: auth.agencyId!, callId: body.callId }))) {
      throw new AppError("CallNotFound", "No call with that callId is owned by the token's agency.");
    }
    const agencyIds = await routeIncident(runtime, auth.agencyId!, body);
    const { created, incident } = await createIncident({
      db: runtime.db,
      clock: runtime.clock,
      portalUrl: runtime.env.PORTAL_URL,
      id: body.requestedIncidentId,
      purpose: "Real",
      routingMode: body.routingMode,
      createdByAgencyId: auth.agencyId!,
      agencyIds,
      phoneNumber,
      enteredLocation: body.caller?.location,
      label: body.label,
      summary: body.summary,
      callSign: body.callSign,
      callId: body.callId,
      actor: inboundActor(auth),
      trace: requestTrace(c),
      onRecorded: noteRecordedChanges(c),
      matchesRepeat: (existing) =>
        existing.createdByAgencyId === auth.agencyId &&
        existing.routingMode === body.routingMode &&
        existing.snapshot.caller.phoneNumber === phoneNumber,
    });
    c.header("ETag", etagOf(incident.version));
    return c.json(view(incident), created ? 201 : 200);
  });
}

function requirePhoneNumber(body: Body): string {
  const phoneNumber = body.caller?.phoneNumber;
  if (!phoneNumber)
    throw new AppError("CallerPhoneNumberRequired", "caller.phoneNumber is required in both routing modes.", [
      { field: "caller.phoneNumber", message: "Required" },
    ]);
  return phoneNumber;
}

async function routeIncident(runtime: Runtime, tokenAgencyId: string, body: Body): Promise<string[]> {
  if (body.routingMode === "TokenAgency") return [tokenAgencyId];
  const agencies = await resolveJurisdiction({
    db: runtime.db,
    location: body.caller!.location!,
    preferredAgencyTypes: body.preferredAgencyTypes,
  });
  if (agencies.length === 0)
    throw new AppError("ValidationFailed", "No agency's jurisdiction holds caller.location.", [
      { field: "caller.location", message: "outside every agency's area" },
    ]);
  return agencies.map((a) => a.id);
}

const view = (i: IncidentState) => ({
  incidentId: i.id,
  openUrl: i.snapshot.openUrl,
  purpose: i.purpose,
  involvedAgencies: i.snapshot.involvedAgencies.map((a) => ({
    id: a.id,
    displayName: a.displayName,
    collaboration: a.collaboration,
  })),
});
