// The /v1 wire format of errors: RFC 9457 application/problem+json with the
// spec's members (type = {error_type_base}/{code}, title, status, detail,
// instance, code, traceId, errors on ValidationFailed). The one serializer of
// AppError for the inbound API.
import type { Context } from "hono";
import type { FieldError } from "../../platform/errors.ts";

/** {error_type_base} = {base_url}/problems (a workbench decision, documented in the OpenAPI document). */
export const errorTypeBase = (baseUrl: string) => `${baseUrl}/problems`;

/** Every code the inbound API answers: the spec's table, plus RouteNotFound and RequestTooLarge (workbench decisions). */
export const PROBLEM_TITLES = {
  ValidationFailed: "Validation failed",
  CallerPhoneNumberRequired: "Caller phone number required",
  AgencyNotAllowed: "Agency not allowed",
  AuthenticationRequired: "Authentication required",
  AgencyContextRequired: "Agency context required",
  UserContextRequired: "User context required",
  AuthorizationDenied: "Authorization denied",
  IncidentNotFound: "Incident not found",
  CallNotFound: "Call not found",
  RouteNotFound: "Route not found",
  IncidentAlreadyExists: "Incident already exists",
  CallAlreadyExists: "Call already exists",
  IncidentClosed: "Incident closed",
  UpdateConflict: "Update conflict",
  ChatAlreadyActive: "Chat already active",
  LiveVideoAlreadyActive: "Live video already active",
  CallAlreadyEnded: "Call already ended",
  CollaborationInvitationPending: "Collaboration invitation pending",
  CollaborationAlreadyActive: "Collaboration already active",
  NoPendingCollaborationInvitation: "No pending collaboration invitation",
  CollaborationInvitationAlreadyResolved: "Collaboration invitation already resolved",
  RequestTooLarge: "Request too large",
  UnsupportedMediaType: "Unsupported media type",
  InternalServerError: "Internal server error",
} as const;

export type ProblemCode = keyof typeof PROBLEM_TITLES;
export const PROBLEM_CODES = Object.keys(PROBLEM_TITLES) as ProblemCode[];

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  traceId: string;
  errors?: FieldError[];
};

export function buildProblem(o: {
  baseUrl: string;
  code: string;
  status: number;
  detail: string;
  instance: string;
  traceId: string;
  errors?: FieldError[];
}): Problem {
  const title = (PROBLEM_TITLES as Record<string, string>)[o.code] ?? o.code;
  return {
    type: `${errorTypeBase(o.baseUrl)}/${o.code}`,
    title,
    status: o.status,
    detail: o.detail,
    instance: o.instance,
    code: o.code,
    traceId: o.traceId,
    ...(o.errors ? { errors: o.errors } : {}),
  };
}

export function problemResponse(c: Context, problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
