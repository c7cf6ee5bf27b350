// Errors are typed values (CONTRIBUTING.md, 'Typed errors'). Domain code throws AppError
// with a code of the table in error-codes.ts and a detail; each wire format has one
// serializer that renders it (problem+json for /v1, {error, error_description} for
// /connect/token, the tRPC errorFormatter for the dashboard), looking the status up in
// the table. Anything else is an unexpected error and is rendered as a generic 500
// with a traceId, never a stack.
import { APP_ERRORS, wireCodeOf, type AppErrorCode, type AppErrorDefinition } from "./error-codes.ts";

export type { AppErrorCode } from "./error-codes.ts";

export type FieldError = { field: string; message: string };

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** The code's status in the table: a throw site names what happened, not how a wire says it. */
  readonly status: AppErrorDefinition["status"];
  readonly errors?: FieldError[];

  constructor(code: AppErrorCode, detail: string, errors?: FieldError[]) {
    super(detail);
    this.name = "AppError";
    this.code = code;
    this.status = APP_ERRORS[code].status;
    this.errors = errors;
  }

  /** The code as the wire writes it (`invalid_client`, `not_found`, …): what serializers render. */
  get wireCode(): string {
    return wireCodeOf(this.code);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
