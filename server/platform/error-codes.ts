// Every error code the workbench answers, and what it means on each wire format (CONTRIBUTING.md,
// 'Typed errors'). A throw site names a code and says what happened; the status, tRPC's code and
// the wire name are looked up here, never chosen where the error is thrown. A code that is not a
// row does not compile. docs/inbound-api.md, docs/identity.md and docs/dashboard.md list these
// codes, and a test holds each list to this table.

/** tRPC's codes the dashboard's API answers with (a subset of @trpc/server's TRPC_ERROR_CODE_KEY). */
type TrpcCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

export type AppErrorDefinition = {
  /** The HTTP status on /v1, /connect/token and /Account (tRPC answers its code's own status). */
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 500 | 503 | 504;
  /** tRPC's code: by status, with 413 and 415 BAD_REQUEST and 504 INTERNAL_SERVER_ERROR. */
  readonly trpc: TrpcCode;
  /** One line: the problem+json `title` on /v1 (the spec's wording for its codes). */
  readonly title: string;
  /**
   * The code as the wire writes it, when not the key: OAuth's error values (RFC 6749 5.2), the
   * spec's "PSAP ID invalid" and "PSAP not allowed", and the tRPC `appCode`s of dashboard access.
   */
  readonly wire?: string;
  /** The token endpoint's `error` value when OAuth names it otherwise (RFC 6749's `temporarily_unavailable`). */
  readonly oauth?: string;
  /**
   * The spec's code it is written as on the spec's problem surfaces (/v1, /Account), when the spec's
   * tables have none for it: a partner that branches on `code` meets a code it knows, and the row's
   * own status (and headers) still say what happened (decision 0064). Its `type` and `title` are
   * that code's.
   */
  readonly problem?: "InternalServerError";
};

export const APP_ERRORS = {
  // 400
  ValidationFailed: { status: 400, trpc: "BAD_REQUEST", title: "Validation failed" },
  CallerPhoneNumberRequired: { status: 400, trpc: "BAD_REQUEST", title: "Caller phone number required" },
  AgencyNotAllowed: { status: 400, trpc: "BAD_REQUEST", title: "Agency not allowed" },
  UsernameAmbiguous: { status: 400, trpc: "BAD_REQUEST", title: "Username ambiguous" },
  PublicClient: { status: 400, trpc: "BAD_REQUEST", title: "Public client has no secret" },
  OutboundRefused: { status: 400, trpc: "BAD_REQUEST", title: "Outbound URL refused" },
  // 400 at the token endpoint, in OAuth's words
  InvalidRequest: { status: 400, trpc: "BAD_REQUEST", title: "Invalid request", wire: "invalid_request" },
  InvalidScope: { status: 400, trpc: "BAD_REQUEST", title: "Invalid scope", wire: "invalid_scope" },
  InvalidTarget: { status: 400, trpc: "BAD_REQUEST", title: "Invalid target", wire: "invalid_target" },
  InvalidGrant: { status: 400, trpc: "BAD_REQUEST", title: "Invalid grant", wire: "invalid_grant" },
  UnsupportedGrantType: {
    status: 400,
    trpc: "BAD_REQUEST",
    title: "Unsupported grant type",
    wire: "unsupported_grant_type",
  },
  UnauthorizedClient: { status: 400, trpc: "BAD_REQUEST", title: "Unauthorized client", wire: "unauthorized_client" },
  AccessDenied: { status: 400, trpc: "BAD_REQUEST", title: "Access denied", wire: "access_denied" },
  PsapIdInvalid: { status: 400, trpc: "BAD_REQUEST", title: "PSAP ID invalid", wire: "PSAP ID invalid" },
  PsapNotAllowed: { status: 400, trpc: "BAD_REQUEST", title: "PSAP not allowed", wire: "PSAP not allowed" },
  // 401
  AuthenticationRequired: { status: 401, trpc: "UNAUTHORIZED", title: "Authentication required" },
  InvalidClient: { status: 401, trpc: "UNAUTHORIZED", title: "Invalid client", wire: "invalid_client" },
  // 403
  AgencyContextRequired: { status: 403, trpc: "FORBIDDEN", title: "Agency context required" },
  UserContextRequired: { status: 403, trpc: "FORBIDDEN", title: "User context required" },
  AuthorizationDenied: { status: 403, trpc: "FORBIDDEN", title: "Authorization denied" },
  ListenNotAllowed: { status: 403, trpc: "FORBIDDEN", title: "Listening not allowed" },
  ClientNotAllowed: { status: 403, trpc: "FORBIDDEN", title: "Client not allowed" },
  // 404
  IncidentNotFound: { status: 404, trpc: "NOT_FOUND", title: "Incident not found" },
  CallNotFound: { status: 404, trpc: "NOT_FOUND", title: "Call not found" },
  RouteNotFound: { status: 404, trpc: "NOT_FOUND", title: "Route not found" },
  UserNotFound: { status: 404, trpc: "NOT_FOUND", title: "User not found" },
  ClientNotFound: { status: 404, trpc: "NOT_FOUND", title: "Client not found" },
  SmsNotFound: { status: 404, trpc: "NOT_FOUND", title: "SMS not found" },
  IntegrationNotFound: { status: 404, trpc: "NOT_FOUND", title: "Integration not found" },
  ReceiverNotFound: { status: 404, trpc: "NOT_FOUND", title: "Receiver not found" },
  DeliveryNotFound: { status: 404, trpc: "NOT_FOUND", title: "Delivery not found" },
  ConformanceRunNotFound: { status: 404, trpc: "NOT_FOUND", title: "Conformance run not found" },
  ClientCallNotFound: { status: 404, trpc: "NOT_FOUND", title: "API call not found" },
  MemberNotFound: { status: 404, trpc: "NOT_FOUND", title: "Member not found", wire: "not_found" },
  ApiTokenNotFound: { status: 404, trpc: "NOT_FOUND", title: "API token not found", wire: "not_found" },
  // 409
  IncidentAlreadyExists: { status: 409, trpc: "CONFLICT", title: "Incident already exists" },
  CallAlreadyExists: { status: 409, trpc: "CONFLICT", title: "Call already exists" },
  IncidentClosed: { status: 409, trpc: "CONFLICT", title: "Incident closed" },
  UpdateConflict: { status: 409, trpc: "CONFLICT", title: "Update conflict" },
  ChatAlreadyActive: { status: 409, trpc: "CONFLICT", title: "Chat already active" },
  LiveVideoAlreadyActive: { status: 409, trpc: "CONFLICT", title: "Live video already active" },
  CallAlreadyEnded: { status: 409, trpc: "CONFLICT", title: "Call already ended" },
  CollaborationInvitationPending: { status: 409, trpc: "CONFLICT", title: "Collaboration invitation pending" },
  CollaborationAlreadyActive: { status: 409, trpc: "CONFLICT", title: "Collaboration already active" },
  NoPendingCollaborationInvitation: { status: 409, trpc: "CONFLICT", title: "No pending collaboration invitation" },
  CollaborationInvitationAlreadyResolved: {
    status: 409,
    trpc: "CONFLICT",
    title: "Collaboration invitation already resolved",
  },
  ChatNotActive: { status: 409, trpc: "CONFLICT", title: "Chat not active" },
  ClientExists: { status: 409, trpc: "CONFLICT", title: "Client exists" },
  MemberExists: { status: 409, trpc: "CONFLICT", title: "Member exists", wire: "conflict" },
  LastEnabledAdmin: { status: 409, trpc: "CONFLICT", title: "Last enabled admin", wire: "conflict" },
  ApiTokenNotRevoked: { status: 409, trpc: "CONFLICT", title: "API token not revoked", wire: "conflict" },
  // 413, 415
  RequestTooLarge: { status: 413, trpc: "BAD_REQUEST", title: "Request too large" },
  UnsupportedMediaType: { status: 415, trpc: "BAD_REQUEST", title: "Unsupported media type" },
  // 429: guessing slowed down (docs/decisions/0051-guessing-slowed-down.md)
  TooManyAttempts: {
    status: 429,
    trpc: "TOO_MANY_REQUESTS",
    title: "Too many attempts",
    wire: "too_many_attempts",
  },
  // 429: an injected fault on /v1 or /Account (docs/api-calls.md); the platform itself never answers it
  TooManyRequests: { status: 429, trpc: "TOO_MANY_REQUESTS", title: "Too many requests" },
  // 5xx
  InternalServerError: { status: 500, trpc: "INTERNAL_SERVER_ERROR", title: "Internal server error" },
  // 503: the database is out of reach (docs/decisions/0055-riding-out-a-database-outage.md). On /v1 and
  // /Account the spec's "request could not be completed", with its 503 and Retry-After (0064).
  DatabaseUnavailable: {
    status: 503,
    trpc: "SERVICE_UNAVAILABLE",
    title: "Database unavailable",
    oauth: "temporarily_unavailable",
    problem: "InternalServerError",
  },
  ScenarioTimeout: { status: 504, trpc: "INTERNAL_SERVER_ERROR", title: "Scenario timed out" },
} as const satisfies Record<string, AppErrorDefinition>;

export type AppErrorCode = keyof typeof APP_ERRORS;

export const APP_ERROR_CODES = Object.keys(APP_ERRORS) as AppErrorCode[];

/** A code's row, widened so its optional members can be read. */
export const appErrorDefinition = (code: AppErrorCode): AppErrorDefinition => APP_ERRORS[code];

/** The code as every wire format writes it: problem `code`/`type`, OAuth `error`, tRPC `appCode`. */
export const wireCodeOf = (code: AppErrorCode): string => appErrorDefinition(code).wire ?? code;

/** The code as the spec's problem objects (/v1, /Account) write it: the spec's own where its tables lack this one. */
export const problemCodeOf = (code: AppErrorCode): string => appErrorDefinition(code).problem ?? wireCodeOf(code);

/** The problem object's `title` on /v1: the row's, or the spec code's it is written as. */
export const problemTitleOf = (code: AppErrorCode): string =>
  APP_ERRORS[appErrorDefinition(code).problem ?? code].title;

/** The code as the token endpoint's `error` writes it: OAuth's own name when it has one. */
export const oauthCodeOf = (code: AppErrorCode): string => appErrorDefinition(code).oauth ?? wireCodeOf(code);
