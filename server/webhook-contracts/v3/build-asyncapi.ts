// The v3 webhook contract as an AsyncAPI 3 document, generated from the same
// zod schemas that validate what is sent (CONTRIBUTING.md, 'One schema, many uses'). Served by Next
// at /api/docs/webhooks/asyncapi.json: /api is Next's (not a protocol prefix),
// and a static document needs none of Hono's speed. It carries the
// workbench's decisions where the spec says "not shown".
import ms from "ms";
import { z } from "zod";
import { ZIncidentSnapshotV3 } from "../../incidents/snapshot.schema.ts";
import { FIRST_RETRY_DELAY_MS, REQUEST_TIMEOUT_MS, RETRY_WINDOW_MS } from "../delivery-rules.ts";
import { ZAboutDeclaration } from "./capabilities.schema.ts";
import { flagPathOf, V3_FLAGS } from "./capability-flags.ts";
import { operationOf, V3_EVENT_BODIES, V3_ROUTES, v3EventName, v3PathTemplate } from "./routes.ts";

export const ASYNCAPI_PATH = "/api/docs/webhooks/asyncapi.json";

const DECISIONS = [
  "Bodies the spec does not show follow workbench-decisions.md: closed {closedAtUtc}; full-name {fullName}; phone-number {phoneNumber}; device-info {deviceInfo}; chat/activated {chat}; live-video/activated {liveVideo}; involved-agency {agency}; collaboration {collaboration}; label {label}; summary {summary}; call-sign {callSign}; patient/description {description}; changed {event, openUrl}.",
  "PUT caller carries the whole composed caller as the body itself, not wrapped: the snapshot's caller object exactly as in the snapshot (tracks included).",
  'The generic changed event\'s `event` is the operation name of the specific route, e.g. "PATCH caller/full-name"; for the collaboration route it is "PATCH involved-agency/{agencyId}/collaboration".',
  "Recipients: the integrations of the incident's involved agencies (one per agency). Owner, Pending and Accepted agencies receive every event; an invited agency is newly involved from the invitation and gets the create-and-track sequence then. A Declined agency receives the collaboration change recording its decline and nothing after it; invited again, it is newly involved again and gets the create-and-track sequence again (never an append to a track it missed positions of).",
  "Before an integration's /about has been accepted nothing is planned against a guessed declaration: its changes wait and are planned against the declaration it makes, in order, each event within its one-hour window from the change's production (older ones expire unsent). The same holds while a declaration is rejected.",
  'A receiver without incident.created but with incident.changed gets a generic changed event (event "POST incidents") where the create would go.',
  retryRule(),
  "incidents resend re-sends the create-and-track sequence as new events (new Service-Request-Ids and a fresh hour).",
  "An expired append (POST caller/track) is a permanent hole in that source's track, as Delivery rule 5 says: the receiver still holds the rest of the track, later appends keep coming, and incidents resend heals it.",
  "An expired whole track (PUT caller/track, also one of the create-and-track sequence) means the receiver never got that source's track in full, and no append follows it: if an append for that source is already queued behind it, that first append is sent instead as PUT caller/track carrying the source's whole track as of that append's change (same Service-Request-Id and Service-Request-Timestamp), and the appends after it stay appends; if none is queued, the next change of that source is sent as a whole-track PUT.",
];

/**
 * Delivery rules 1 and 2 as the engine applies them, rendered from the numbers it schedules by
 * (delivery-rules.ts), never written beside them: a changed constant changes what partners read.
 */
function retryRule(): string {
  const long = (n: number) => ms(n, { long: true });
  return `Retries: ${long(FIRST_RETRY_DELAY_MS)} after a failure (counted from the failed attempt's end), the delay doubling each time; the last retry is capped at producedAt + ${long(RETRY_WINDOW_MS)}, when the event is abandoned (expired). Only HTTP 200 succeeds; an attempt has ${long(REQUEST_TIMEOUT_MS)} in all (connect, send, the whole answer); redirects are not followed.`;
}

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: "any", io: "output" });

export function buildAsyncApiDocument(options: { publicUrl: string }) {
  const headers = {
    type: "object",
    required: ["Service-Request-Id", "Service-Request-Timestamp", "Authorization"],
    properties: {
      "Service-Request-Id": {
        type: "string",
        format: "uuid",
        description: "delivery identifier; retries keep it; deduplicate on it (keep at least one hour)",
      },
      "Service-Request-Timestamp": {
        type: "string",
        format: "date-time",
        description: "UTC timestamp of the event's production; retries keep it",
      },
      Authorization: {
        type: "string",
        description:
          "Bearer access token: iss {auth_url}, typ at+jwt, aud urn:service:webhooks:{agency_id}, sub = client_id = Publisher, scope webhooks.receive",
      },
    },
  };
  const params = (address: string) =>
    Object.fromEntries(
      [...address.matchAll(/\{(\w+)\}/g)].map((m) => [
        m[1],
        { description: m[1] === "incidentId" ? "incident identifier" : "agency identifier" },
      ]),
    );
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Incident Platform webhooks (contract v3)",
      version: "3.0.0",
      description: `The service calls the partner's receiver over HTTPS. Every event route must answer exactly 200. Deliveries for one incident are strictly ordered and sequential.\n\nWorkbench decisions:\n${DECISIONS.map((d) => `- ${d}`).join("\n")}`,
    },
    servers: {
      receiver: {
        host: "{receiver_url}",
        protocol: "https",
        description: `The partner's receiver. Embedded reference receivers: ${options.publicUrl}/receivers/{receiverKey}`,
        variables: { receiver_url: { description: "the partner's HTTPS endpoint base" } },
      },
    },
    channels: {
      about: {
        address: "/about",
        description:
          "GET: the capability declaration (PsapConnector credential first, Publisher on 401/403). No delivery headers.",
        messages: { about: { $ref: "#/components/messages/about" } },
      },
      health: { address: "/health", description: "GET: 200 when the connector is available.", messages: {} },
      ...Object.fromEntries(
        V3_FLAGS.map((flag) => [
          V3_ROUTES[flag].name,
          {
            address: v3PathTemplate(flag),
            parameters: params(v3PathTemplate(flag)),
            messages: { [v3EventName(flag)]: { $ref: `#/components/messages/${v3EventName(flag)}` } },
          },
        ]),
      ),
    },
    operations: Object.fromEntries(
      V3_FLAGS.map((flag) => [
        `send_${V3_ROUTES[flag].name}`,
        {
          action: "send",
          channel: { $ref: `#/channels/${V3_ROUTES[flag].name}` },
          summary: `${V3_ROUTES[flag].method} ${v3PathTemplate(flag)}`,
          description: `Sent when the receiver declares supports.incident.${flagPathOf(flag)}${flag === "incident.changed" ? " (the generic fallback of every specific route whose flag is missing)" : ""}.`,
          bindings: { http: { method: V3_ROUTES[flag].method, bindingVersion: "0.3.0" } },
        },
      ]),
    ),
    components: {
      schemas: {
        IncidentSnapshotV3: jsonSchema(ZIncidentSnapshotV3),
        CapabilityDeclaration: jsonSchema(ZAboutDeclaration),
      },
      messages: {
        about: { name: "CapabilityDeclaration", payload: jsonSchema(ZAboutDeclaration) },
        ...Object.fromEntries(
          V3_FLAGS.map((flag) => [
            v3EventName(flag),
            { name: v3EventName(flag), title: operationOf(flag), headers, payload: jsonSchema(V3_EVENT_BODIES[flag]) },
          ]),
        ),
      },
    },
  };
}
