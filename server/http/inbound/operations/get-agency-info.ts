// GET /v1/agency/info — agency context, scope agency.read.
import { createRoute } from "@hono/zod-openapi";
import { AppError } from "../../../platform/errors.ts";
import type { Runtime } from "../../../runtime.ts";
import type { InboundApp } from "../inbound-env.ts";
import { errorResponses, json } from "./common.schema.ts";
import { ZAgencyInfoResponse } from "./get-agency-info.schema.ts";
import { scoped } from "./scoped-route.ts";

const route = createRoute(
  scoped("agency", {
    method: "get",
    path: "/v1/agency/info",
    tags: ["Agency"],
    operationId: "getAgencyInfo",
    summary: "The token agency and its relatedAgencies",
    description: "Token context: agency (an application or user token with agency_context). Scope: `agency.read`.",
    responses: { 200: json(ZAgencyInfoResponse, "The agency"), ...errorResponses("agency", [], false) },
  }),
);

export function registerGetAgencyInfo(app: InboundApp, runtime: Runtime) {
  app.openapi(route, async (c) => {
    const agencyId = c.get("auth").agencyId!;
    const agency = await runtime.db.agency.findUnique({
      where: { id: agencyId },
      select: {
        id: true,
        displayName: true,
        type: true,
        relatedTo: {
          select: { to: { select: { id: true, displayName: true, type: true } } },
          orderBy: { to: { displayName: "asc" } },
        },
      },
    });
    if (!agency) throw new AppError("AgencyContextRequired", "The token's agency_context names no known agency.");
    return c.json(
      {
        id: agency.id,
        displayName: agency.displayName,
        type: agency.type,
        relatedAgencies: agency.relatedTo.map((r) => r.to),
      },
      200,
    );
  });
}
