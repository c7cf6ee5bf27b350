// The v1 and v2 webhook contracts as one JSON Schema document (2020-12), built
// from the same zod schemas that validate what is sent (CONTRIBUTING.md, 'One schema, many uses').
// Served by Next at /api/docs/webhooks/legacy-schemas.json beside the v3
// AsyncAPI document. It lists each route with its psap.* scope, each body's
// schema, every rename it applies, and the decisions where the spec is silent.
import { z } from "zod";
import { LEGACY_EVENT_BODIES } from "./event-bodies.schema.ts";
import { ZIncidentV2 } from "./incident.schema.ts";
import { RENAMES } from "./renames.ts";
import { LEGACY_ROUTES, LEGACY_ROUTE_KEYS, legacyTemplate, PSAP_READ_SCOPE, v3CounterpartOf } from "./routes.ts";

export const LEGACY_SCHEMAS_PATH = "/api/docs/webhooks/legacy-schemas.json";

export const LEGACY_DECISIONS = [
  "Version selection: the major version of /about `version` (1.x, 2.x, 3.x) picks the contract; one at a time per integration. Discovery asks /about with PsapConnector (scope psap.read) first and with Publisher on 401/403.",
  "v1 is the v2 contract under the base route /v1: the spec names no v1 shape of its own, so the routes, bodies and scopes are v2's.",
  "v1/v2 have no capability flags: `supports` in a 1.x/2.x declaration is not read; every v1/v2 route is sent.",
  "A change no v2 route expresses (label, summary, call sign, patient description, caller name/phone/data, chat, collaboration, live video ended) is sent as POST /v2/incident with the whole current incident: the receiver replaces its copy (an upsert).",
  "Device info changed is sent as PATCH battery-level {batteryLevel} and PATCH internet-connection-type {internetConnectionType}, each with the current value; other device info members travel in the next POST /v2/incident.",
  "Every body carries requestId (uuid, deduplicate on it) and requestTimeStampUtc (production time); retries keep both. No Service-Request-* headers are sent on v1/v2 routes.",
  "Members the spec does not rename keep their v3 names and shapes (tracks, type, accuracy, receivedAtUtc, dataSources, chat, liveVideo, label, …); Known positions have no accuracy/altitude/verticalAccuracy members, as in v3.",
  "MobileAppSms is folded into MobileApp: the two v3 tracks form one v2 MobileApp track, merged in order of receipt (receivedAtUtc), so an appended position always lands at its end. A PUT position carries the whole merged track.",
  "deviceInfo is at incident level and never null: an unknown device has every member null (automatic detections false). deviceId, deviceName and manufacturer (gone in v3) are always null.",
  "caller.age = the production year − medicData.person.yearOfBirth (a birthday is not known). caller.phoneNumbers is [] when no number is resolved, else [phoneNumber].",
  "Members v3 dropped (platform-interface.md, 'appInfo has no type' and the temporary-information member): dataSources.mobileApp.appInfo.type is always \"MobileApp\", the kind of source; caller.temporaryInformation is the caller's warning {text, expiresAtUtc} while unexpired, else null: v3 merges the warning into medicData.notes.caller, the workbench keeps it and its expiry, and a v2 body carries it in its own member with the caller's own notes (without it) in medicalData.other (decisions 0047, 0063).",
  "caller.medicalData (null when v3 medicData is null) holds the old flags; `other` joins what v3 split out of it as labelled lines (Allergies, Advance directives, Conditions, Pregnancy, Assistance, Organ donation, Caller notes); lastUpdatedUtc is always null (no v3 counterpart).",
  "Close body {closedTimeUtc}; psap body {psap} (an entry of psaps); start-video body {liveVideo}; position POST {position}; position PUT {positionSource, track}.",
  "Cutover: once a declaration of another major version is accepted, no event of the old contract is sent any more (Versioning rule 3: after the cutover the old event routes can be removed). Events already queued under the old contract are superseded, never sent; an event in flight finishes or fails as it is and is never retried under the old contract; each incident that had any is sent at once as the create-and-track sequence of its current snapshot under the new contract (its close too, if closed), then the events of later changes. An incident with nothing queued starts the new contract with its next change, by its create-and-track sequence.",
  "Expiry, as in v3: an expired POST position is a permanent hole (incidents resend heals it). An expired PUT position means the receiver never got that v2 track in full: the first POST position queued behind it for that track is sent instead as PUT position with the whole track as of that position's change (same requestId and requestTimeStampUtc); with none queued, the next change of that track is sent as a PUT position.",
];

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { unrepresentable: "any", io: "output", target: "draft-2020-12" });

export function buildLegacySchemasDocument() {
  const routes = (major: 1 | 2) =>
    Object.fromEntries(
      LEGACY_ROUTE_KEYS.map((k) => [
        k,
        {
          operation: `${LEGACY_ROUTES[k].method} ${legacyTemplate(k, major)}`,
          v3Counterpart: v3CounterpartOf(k),
          requiredScope: LEGACY_ROUTES[k].scope,
          body: { $ref: `#/$defs/${k}` },
        },
      ]),
    );
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: LEGACY_SCHEMAS_PATH,
    title: "Incident Platform webhooks, legacy contracts v1 and v2 (frozen)",
    description:
      "Derived from the v3 snapshot through the renames of the Versioning rules 4–6. Every event route must answer exactly 200.",
    tokens: {
      description:
        "Bearer access token on every v1/v2 route and on /about: iss {auth_url}, signed with the keys of its jwks_uri; aud urn:service:agency:{agency_id} (lowercase dashed UUID); sub = client_id = PsapConnector; scope: the psap.* scope the route requires (below); unexpired. No typ check.",
      about: { requiredScope: PSAP_READ_SCOPE },
    },
    decisions: LEGACY_DECISIONS,
    renames: RENAMES.map((r) => ({ rule: r.rule, spec: r.phrase, v3: r.v3, v2: r.v2 })),
    routes: { v2: routes(2), v1: routes(1) },
    $defs: {
      IncidentV2: jsonSchema(ZIncidentV2),
      ...Object.fromEntries(LEGACY_ROUTE_KEYS.map((k) => [k, jsonSchema(LEGACY_EVENT_BODIES[k])])),
    },
  };
}
