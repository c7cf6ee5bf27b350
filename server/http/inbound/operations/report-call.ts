// POST /v1/calls (repeatable: 201 / 200 same body / 409 CallAlreadyExists) and
// POST /v1/calls/{callId}/end (once: 409 CallAlreadyEnded) — agency context, scope call.report.
import { createRoute } from "@hono/zod-openapi";
import type { Runtime } from "../../../runtime.ts";
import { bodySteps } from "../accept-json.ts";
import { endCall, reportCall } from "../../../incidents/report-call.ts";
import type { InboundApp } from "../inbound-env.ts";
import { errorResponses, json, jsonBody } from "./common.schema.ts";
import { ZCall, ZCallIdParam, ZEndCallRequest, ZReportCallRequest } from "./report-call.schema.ts";
import { scoped } from "./scoped-route.ts";

const reportRoute = createRoute(
  scoped("agency", {
    method: "post",
    path: "/v1/calls",
    tags: ["Calls"],
    operationId: "reportCall",
    summary: "Report a telephone call (repeatable)",
    description:
      "Token context: agency. Scope: `call.report`. The repeat key is the token agency + callerPhoneNumber + startedAtUtc (millisecond precision), enforced by a unique index: concurrent repeats give one 201 and 200s with the same body. A repeat never rewrites the call: when it sends endedAtUtc and the call already ended at another time the answer is 409 CallAlreadyExists (recover by repeating without endedAtUtc, then ending the call); a repeat does not end a call that has not ended — use POST /v1/calls/{callId}/end.",
    middleware: bodySteps(true),
    request: { body: jsonBody(ZReportCallRequest) },
    responses: {
      201: json(ZCall, "Created"),
      200: json(ZCall, "A call with that key already existed (same body)"),
      ...errorResponses("agency", ["CallAlreadyExists"], true),
    },
  }),
);

const endRoute = createRoute(
  scoped("agency", {
    method: "post",
    path: "/v1/calls/{callId}/end",
    tags: ["Calls"],
    operationId: "endCall",
    summary: "End a call (once)",
    description:
      "Token context: agency. Scope: `call.report`. Not repeatable: a second end is 409 CallAlreadyEnded. Another agency's call is 404 CallNotFound.",
    middleware: bodySteps(true),
    request: { params: ZCallIdParam, body: jsonBody(ZEndCallRequest) },
    responses: {
      200: json(ZCall, "The ended call"),
      ...errorResponses("agency", ["CallNotFound", "CallAlreadyEnded"], true),
    },
  }),
);

export function registerCalls(app: InboundApp, runtime: Runtime) {
  app.openapi(reportRoute, async (c) => {
    const body = c.req.valid("json");
    const { created, call } = await reportCall({
      db: runtime.db,
      clock: runtime.clock,
      agencyId: c.get("auth").agencyId!,
      callerPhoneNumber: body.callerPhoneNumber,
      startedAt: new Date(body.startedAtUtc),
      endedAt: body.endedAtUtc ? new Date(body.endedAtUtc) : undefined,
    });
    return c.json(call, created ? 201 : 200);
  });
  app.openapi(endRoute, async (c) => {
    const call = await endCall({
      db: runtime.db,
      agencyId: c.get("auth").agencyId!,
      callId: c.req.valid("param").callId,
      endedAt: new Date(c.req.valid("json").endedAtUtc),
    });
    return c.json(call, 200);
  });
}
