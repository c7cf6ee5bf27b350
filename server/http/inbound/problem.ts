// The /v1 wire format of errors: RFC 9457 application/problem+json with the
// spec's members (type = {error_type_base}/{code}, title, status, detail,
// instance, code, traceId, errors on ValidationFailed). The one serializer of
// AppError for the inbound API.
import type { Context } from "hono";
import type { AppError, FieldError } from "../../platform/errors.ts";
import { problemCodeOf, problemTitleOf, type AppErrorCode } from "../../platform/error-codes.ts";

/** {error_type_base} = {base_url}/problems (a workbench decision, documented in the OpenAPI document). */
export const errorTypeBase = (baseUrl: string) => `${baseUrl}/problems`;

/**
 * Every code the inbound API answers: the spec's table, plus RouteNotFound, RequestTooLarge and
 * TooManyRequests (an injected fault) (workbench decisions); DatabaseUnavailable is answered as the
 * spec's InternalServerError with its own 503 and Retry-After (decision 0064). Statuses and titles are
 * the error table's (server/platform/error-codes.ts); docs/inbound-api.md lists these codes, and a test
 * holds it to this list.
 */
export const PROBLEM_CODES = [
  "ValidationFailed",
  "CallerPhoneNumberRequired",
  "AgencyNotAllowed",
  "AuthenticationRequired",
  "AgencyContextRequired",
  "UserContextRequired",
  "AuthorizationDenied",
  "IncidentNotFound",
  "CallNotFound",
  "RouteNotFound",
  "IncidentAlreadyExists",
  "CallAlreadyExists",
  "IncidentClosed",
  "UpdateConflict",
  "ChatAlreadyActive",
  "LiveVideoAlreadyActive",
  "CallAlreadyEnded",
  "CollaborationInvitationPending",
  "CollaborationAlreadyActive",
  "NoPendingCollaborationInvitation",
  "CollaborationInvitationAlreadyResolved",
  "RequestTooLarge",
  "UnsupportedMediaType",
  "TooManyRequests",
  "InternalServerError",
  "DatabaseUnavailable",
] as const satisfies readonly AppErrorCode[];

export type ProblemCode = (typeof PROBLEM_CODES)[number];

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

export function buildProblem(o: { baseUrl: string; error: AppError; instance: string; traceId: string }): Problem {
  const { error } = o;
  const code = problemCodeOf(error.code);
  return {
    type: `${errorTypeBase(o.baseUrl)}/${code}`,
    title: problemTitleOf(error.code),
    status: error.status,
    detail: error.message,
    instance: o.instance,
    code,
    traceId: o.traceId,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

export function problemResponse(c: Context, problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
