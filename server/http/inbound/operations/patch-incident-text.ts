// The five text PATCHes (rule 1): property required, text or null (null
// clears), empty/whitespace-only → ValidationFailed. Optional If-Match with the
// incident's ETag; stale → 409 UpdateConflict. Writers of one incident are
// serialized (apply-change.ts: a write applies only to the version it read, else
// it is applied again, If-Match checked again), so none is ever lost silently.
import { createRoute, z } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { bodySteps } from "../accept-json.ts";
import { setIncidentText } from "../../../incidents/set-incident-text.ts";
import { etagOf } from "../../../incidents/incident-state.ts";
import { inboundActor, type InboundApp } from "../inbound-env.ts";
import { ZIncidentIdParam, errorResponses, json, jsonBody } from "./common.schema.ts";
import { TEXT_ROUTES, textFieldSchema } from "./patch-incident-text.schema.ts";
import { scoped } from "./scoped-route.ts";
import { requestTrace } from "../../trace-requests.ts";
import { noteRecordedChanges } from "../../client-calls/call-context.ts";

const ZIfMatch = z.object({
  "if-match": z
    .string()
    .optional()
    .openapi({
      param: { name: "if-match", in: "header" },
      description:
        "Optional: the incident's ETag as last read. When it is no longer current the answer is 409 UpdateConflict and nothing changes.",
      example: '"3"',
    }),
});

export function registerTextPatches(app: InboundApp, runtime: Runtime) {
  for (const r of TEXT_ROUTES) {
    const name = r.property[0]!.toUpperCase() + r.property.slice(1);
    const schema = textFieldSchema(
      r.property,
      r.max,
      r.example,
      `${r.field[0]!.toUpperCase()}${r.field.slice(1)}Patch`,
    );
    const route = createRoute(
      scoped("user", {
        method: "patch",
        path: r.path,
        tags: ["Incident fields"],
        operationId: `set${name === "Description" ? "PatientDescription" : name}`,
        summary: `Set or clear the ${r.title}`,
        description: `Token context: agency and user. Scope: \`incident.update\`. Body \`{ "${r.property}": text | null }\`: the property is required, null clears, text is 1–${r.max} characters and not whitespace-only. Answers 200 with the field's current value and the new ETag. Setting the current value again changes nothing (no webhook). Optional If-Match; a stale ETag is 409 UpdateConflict. A closed incident answers 409 IncidentClosed.`,
        middleware: bodySteps(true),
        request: { params: ZIncidentIdParam, headers: ZIfMatch, body: jsonBody(schema) },
        responses: {
          200: json(schema, "The field's current value"),
          ...errorResponses("incident", ["UpdateConflict"], true),
        },
      }),
    );
    app.openapi(route, async (c) => {
      const auth = c.get("auth");
      const value = (c.req.valid("json") as Record<string, string | null>)[r.property] ?? null;
      const applied = await setIncidentText({
        db: runtime.db,
        clock: runtime.clock,
        incidentId: c.req.valid("param").incidentId,
        actor: inboundActor(auth),
        access: { agencyId: auth.agencyId! },
        ifMatch: c.req.header("if-match"),
        trace: requestTrace(c),
        onRecorded: noteRecordedChanges(c),
        field: r.field,
        value,
      });
      c.header("ETag", etagOf(applied.version));
      return c.json({ [r.property]: applied.result }, 200);
    });
  }
}
