// The scopes a client may be assigned and a token may grant (platform-interface.md,
// "Authentication"; workbench-decisions.md names them): the one list the identity server
// (client scopes, token grants, resources, the discovery document), the /v1 operations'
// authorisation and OpenAPI security, the seed, the test helpers and the Admin page read.
// Each names the resource its tokens are for (RFC 8707: a token's `aud`), what it allows, and
// for an inbound scope every /v1 operation that needs it, as `METHOD path` exactly as the
// operation is registered. Adding a scope or an operation is one edit here. The Playwright kit
// keeps a copy of the inbound names (packages/playwright/src/partner-api.ts), held to this
// list by its server-copies.test.ts.

export type ResourceName = "inbound" | "account";

type ScopeDefinition = {
  /** The resource whose `aud` the scope grants; null: none of its own (username.required). */
  resource: ResourceName | null;
  allows: string;
  operations: readonly string[];
};

export const SCOPES = {
  "agency.read": {
    resource: "inbound",
    allows: "read the token agency's own information and its related agencies",
    operations: ["GET /v1/agency/info"],
  },
  "call.report": {
    resource: "inbound",
    allows: "report a call and its end",
    operations: ["POST /v1/calls", "POST /v1/calls/{callId}/end"],
  },
  "incident.create": {
    resource: "inbound",
    allows: "create an incident",
    operations: ["POST /v1/incidents"],
  },
  "incident.update": {
    resource: "inbound",
    allows: "set or clear an incident's label, call sign, summary, caller full name and patient description",
    operations: [
      "PATCH /v1/incidents/{incidentId}/label",
      "PATCH /v1/incidents/{incidentId}/call-sign",
      "PATCH /v1/incidents/{incidentId}/summary",
      "PATCH /v1/incidents/{incidentId}/caller/full-name",
      "PATCH /v1/incidents/{incidentId}/patient/description",
    ],
  },
  "incident.caller.track": {
    resource: "inbound",
    allows: "add a location to the caller's track",
    operations: ["POST /v1/incidents/{incidentId}/caller/track"],
  },
  "incident.caller.locate": {
    resource: "inbound",
    allows: "send the caller a location-link SMS",
    operations: ["POST /v1/incidents/{incidentId}/caller/locate"],
  },
  "incident.caller.chat": {
    resource: "inbound",
    allows: "activate a chat with the caller",
    operations: ["POST /v1/incidents/{incidentId}/caller/chat/activate"],
  },
  "incident.caller.live-video": {
    resource: "inbound",
    allows: "activate live video from the caller",
    operations: ["POST /v1/incidents/{incidentId}/caller/live-video/activate"],
  },
  "incident.collaboration": {
    resource: "inbound",
    allows: "invite another agency to an incident, and accept or decline an invitation",
    operations: [
      "POST /v1/incidents/{incidentId}/involved-agencies",
      "POST /v1/incidents/{incidentId}/collaboration/accept",
      "POST /v1/incidents/{incidentId}/collaboration/decline",
    ],
  },
  "incident.close": {
    resource: "inbound",
    allows: "close an incident",
    operations: ["POST /v1/incidents/{incidentId}/close"],
  },
  "identity.user.signin": {
    resource: "account",
    allows: "get a user's one-time sign-in token from the Account API (POST /Account/GetUserSigninToken)",
    operations: [],
  },
  "username.required": {
    resource: null,
    allows: "a user-context token: with the username parameter, the token's sub is that user",
    operations: [],
  },
} as const satisfies Record<string, ScopeDefinition>;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** The scope that asks for a user-context token (Authentication rule 4). */
export const USERNAME_REQUIRED_SCOPE = "username.required" satisfies Scope;
/** The scope of the Account API's sign-in tokens. */
export const USER_SIGNIN_SCOPE = "identity.user.signin" satisfies Scope;

type InboundScopeOf<S extends Scope> = S extends Scope
  ? (typeof SCOPES)[S]["resource"] extends "inbound"
    ? S
    : never
  : never;
export type InboundScope = InboundScopeOf<Scope>;
/** The scopes of the inbound API, in the list's order. */
export const INBOUND_SCOPES = SCOPE_NAMES.filter((s) => SCOPES[s].resource === "inbound") as InboundScope[];

/** A /v1 operation as the list names it: `METHOD path`. */
export type InboundOperation = (typeof SCOPES)[InboundScope]["operations"][number];

const SCOPE_OF_OPERATION = new Map<string, InboundScope>(
  INBOUND_SCOPES.flatMap((scope) => SCOPES[scope].operations.map((operation) => [operation, scope] as const)),
);

/** The scope a /v1 operation needs; undefined for an operation the list does not name. */
export const scopeOfOperation = (method: string, path: string): InboundScope | undefined =>
  SCOPE_OF_OPERATION.get(`${method.toUpperCase()} ${path}`);
