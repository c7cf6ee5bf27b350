// POST …/caller/chat/activate and …/caller/live-video/activate → 200 { portalUrl }.
// Chat stays active until the incident closes (409 ChatAlreadyActive); live
// video ends on its own after LIVE_VIDEO_DURATION_S (409 LiveVideoAlreadyActive
// while active). Activation never fails because a device cannot do video.
import { createRoute } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { activateChat, activateLiveVideo } from "../../../incidents/reach-caller.ts";
import type { InboundApp } from "../inbound-env.ts";
import { ZIncidentIdParam, errorResponses, json } from "./common.schema.ts";
import { ZPortalUrlResponse } from "./caller-actions.schema.ts";
import { bodySteps } from "../accept-json.ts";
import { onIncident } from "./incident-steps.ts";
import { scoped } from "./scoped-route.ts";

const chatRoute = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents/{incidentId}/caller/chat/activate",
    tags: ["Caller"],
    operationId: "activateChat",
    summary: "Activate caller chat",
    description:
      "Token context: agency and user. Scope: `incident.caller.chat`. No body. Returns the portal URL of the chat. Chat has no end: it stays active until the incident closes; a second activation is 409 ChatAlreadyActive.",
    middleware: bodySteps(false),
    request: { params: ZIncidentIdParam },
    responses: {
      200: json(ZPortalUrlResponse, "Chat is active"),
      ...errorResponses("incident", ["ChatAlreadyActive"], false),
    },
  }),
);

const videoRoute = createRoute(
  scoped("user", {
    method: "post",
    path: "/v1/incidents/{incidentId}/caller/live-video/activate",
    tags: ["Caller"],
    operationId: "activateLiveVideo",
    summary: "Activate live video",
    description:
      "Token context: agency and user. Scope: `incident.caller.live-video`. No body. Returns the portal URL of the live video. While active, a second activation is 409 LiveVideoAlreadyActive; after it ended (on its own after LIVE_VIDEO_DURATION_S seconds of workbench time, default 120, or from the simulator) it can be activated again. Never fails because the caller's device cannot do video.",
    middleware: bodySteps(false),
    request: { params: ZIncidentIdParam },
    responses: {
      200: json(ZPortalUrlResponse, "Live video is active"),
      ...errorResponses("incident", ["LiveVideoAlreadyActive"], false),
    },
  }),
);

export function registerActivateCallerChannels(app: InboundApp, runtime: Runtime) {
  app.openapi(chatRoute, async (c) => {
    const applied = await activateChat({ ...onIncident(runtime, c), portalUrl: runtime.env.PORTAL_URL });
    return c.json(applied.result, 200);
  });
  app.openapi(videoRoute, async (c) => {
    const applied = await activateLiveVideo({
      ...onIncident(runtime, c),
      portalUrl: runtime.env.PORTAL_URL,
      durationS: runtime.env.LIVE_VIDEO_DURATION_S,
    });
    return c.json(applied.result, 200);
  });
}
