// The shared first steps of every operation on an existing incident (agency +
// user context per Authentication rule 7) and the options every domain call gets.
import type { Context } from "hono";
import type { Runtime } from "../../../runtime.ts";
import { authorize } from "../authenticate.ts";
import { acceptJson, limitBody } from "../accept-json.ts";
import { inboundActor, type InboundEnv } from "../inbound-env.ts";

export const incidentSteps = (scope: string, bodyRequired: boolean) => [
  authorize({ context: "user", scope }),
  limitBody,
  acceptJson({ bodyRequired }),
];

/** db, clock, incident id, actor and the token agency's access rule for applyIncidentChange. */
export function onIncident(runtime: Runtime, c: Context<InboundEnv>) {
  const auth = c.get("auth");
  return {
    db: runtime.db,
    clock: runtime.clock,
    incidentId: c.req.param("incidentId") ?? "",
    actor: inboundActor(auth),
    access: { agencyId: auth.agencyId! },
  };
}

export const userSecurity = (scope: string) => [{ bearer: [scope, "username.required"] }];
