// The options every domain call of an operation on an existing incident gets (agency + user
// context per Authentication rule 7; the steps before it: scoped-route.ts, bodySteps).
import type { Context } from "hono";
import type { Runtime } from "../../../runtime.ts";
import { inboundActor, type InboundEnv } from "../inbound-env.ts";
import { requestTrace } from "../../trace-requests.ts";
import { noteRecordedChanges } from "../../client-calls/call-context.ts";

/**
 * db, clock, incident id, actor, the token agency's access rule, the request's span (tracing on) and
 * where the change records are noted for the API calls inspector, for applyIncidentChange.
 */
export function onIncident(runtime: Runtime, c: Context<InboundEnv>) {
  const auth = c.get("auth");
  return {
    db: runtime.db,
    clock: runtime.clock,
    incidentId: c.req.param("incidentId") ?? "",
    actor: inboundActor(auth),
    access: { agencyId: auth.agencyId! },
    trace: requestTrace(c),
    onRecorded: noteRecordedChanges(c),
  };
}
