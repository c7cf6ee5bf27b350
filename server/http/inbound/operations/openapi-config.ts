// The document's frame: where the workbench decisions that apply to every
// operation are written down for integrators (workbench-decisions.md asks for it).
import { INBOUND_SCOPES, SCOPES } from "../../../identity/scopes.ts";
import type { Env } from "../../../platform/env.ts";
import { MAX_BODY_BYTES } from "../accept-json.ts";
import { errorTypeBase } from "../problem.ts";
import { TEXT_LIMITS } from "./common.schema.ts";

export function openApiConfig(env: Pick<Env, "BASE_URL" | "AUTH_URL" | "PORTAL_URL" | "LIVE_VIDEO_DURATION_S">) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Incident Platform Workbench — inbound API v1",
      version: "1.0.0",
      description: [
        'The inbound API of the emergency incident platform, as the workbench implements it. Every rule of the interface specification holds; where it says "not shown", the workbench\'s decisions are stated here and in each operation.',
        "## Authentication",
        `Bearer access tokens from \`POST ${env.AUTH_URL}/connect/token\`: RS256 JWTs with typ \`at+jwt\`, iss \`${env.AUTH_URL}\`, verified against the discovery document's jwks_uri on the workbench clock; \`aud\` must include \`${env.BASE_URL}/v1\`. Missing or invalid: 401 AuthenticationRequired.`,
        "Token context (Authentication rule 7): agency context (agency_context claim) for GET /v1/agency/info, POST /v1/calls and POST /v1/calls/{callId}/end; agency and user context (scope username.required plus username; sub is the user) for POST /v1/incidents and every operation on an incident. Checks run in this order: 403 AgencyContextRequired, 403 UserContextRequired, 403 AuthorizationDenied (scope missing).",
        `Scopes, each operation's own in its security requirement: ${INBOUND_SCOPES.map((s) => `\`${s}\` to ${SCOPES[s].allows}`).join("; ")}.`,
        "## Errors",
        `Every error is \`application/problem+json\` with type \`${errorTypeBase(env.BASE_URL)}/{code}\`, title, status, detail, instance (the request path), code and traceId (also written to the server log with the code); ValidationFailed adds \`errors: [{ field, message }]\`. Branch on \`code\`. Besides the specification's codes the workbench answers 404 RouteNotFound for an unknown path or method and 413 RequestTooLarge for a body over ${MAX_BODY_BYTES} bytes. A body that is not application/json is 415 UnsupportedMediaType; malformed JSON is 400 ValidationFailed. An incident of another agency (or an ID that is not a UUID) is 404 IncidentNotFound, never 403. Every 409 changes nothing.`,
        "## Limits",
        `Request body: at most ${MAX_BODY_BYTES} bytes. Text fields: label ${TEXT_LIMITS.label}, callSign ${TEXT_LIMITS.callSign}, caller fullName ${TEXT_LIMITS.fullName}, summary ${TEXT_LIMITS.summary}, patient description ${TEXT_LIMITS.description} characters. Phone numbers: at most 32 characters (digits, optional leading +, spaces, dashes, parentheses). Timestamps are stored with millisecond precision.`,
        "## Concurrency",
        "Writers of one incident are serialized: a change is written only if the incident is still the version it was read at, otherwise it is applied again to the new version (under the incident's row lock if that keeps happening); none is lost silently. Every incident response carrying state returns an `ETag` (the incident's version); the PATCH operations accept `If-Match` and answer 409 UpdateConflict when it is stale. Repeats of POST /v1/calls and POST /v1/incidents are decided by the database: concurrent repeats give exactly one 201 and 200s with the same body.",
        `## Portal URLs`,
        `openUrl is \`${env.PORTAL_URL}/portal/incidents/{incidentId}\`; chat and live video answer \`…/chat\` and \`…/live-video\` below it. Use them as delivered. Live video ends on its own after ${env.LIVE_VIDEO_DURATION_S} seconds of workbench time (LIVE_VIDEO_DURATION_S).`,
      ].join("\n\n"),
    },
    servers: [{ url: env.BASE_URL, description: "{base_url}" }],
    security: [{ bearer: [] }],
  };
}
