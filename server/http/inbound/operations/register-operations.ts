// Every v1 operation, in the order of the spec's endpoint table.
import type { Runtime } from "../../../runtime.ts";
import type { InboundApp } from "../inbound-env.ts";
import { registerGetAgencyInfo } from "./get-agency-info.ts";
import { registerCalls } from "./report-call.ts";
import { registerCreateIncident } from "./create-incident.ts";
import { registerTextPatches } from "./patch-incident-text.ts";
import { registerAddCallerLocation } from "./add-caller-location.ts";
import { registerLocateCaller } from "./locate-caller.ts";
import { registerActivateCallerChannels } from "./activate-caller-channel.ts";
import { registerCloseIncident } from "./close-incident.ts";
import { registerCollaboration } from "./collaboration.ts";

export function registerOperations(app: InboundApp, runtime: Runtime) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT (at+jwt)",
    description: "An access token from POST {auth_url}/connect/token whose aud includes {base_url}/v1.",
  });
  registerGetAgencyInfo(app, runtime);
  registerCalls(app, runtime);
  registerCreateIncident(app, runtime);
  registerTextPatches(app, runtime);
  registerAddCallerLocation(app, runtime);
  registerLocateCaller(app, runtime);
  registerActivateCallerChannels(app, runtime);
  registerCloseIncident(app, runtime);
  registerCollaboration(app, runtime);
}
