// Errors are typed values (CONTRIBUTING.md, 'Typed errors'). Domain code throws AppError
// with a stable code; each wire format has one serializer that renders it
// (problem+json for /v1, {error, error_description} for /connect/token, the
// tRPC errorFormatter for the dashboard). Anything else is an unexpected error
// and is rendered as a generic 500 with a traceId, never a stack.

export type FieldError = { field: string; message: string };

export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly errors?: FieldError[];

  constructor(code: string, status: number, detail: string, errors?: FieldError[]) {
    super(detail);
    this.name = "AppError";
    this.code = code;
    this.status = status;
    this.errors = errors;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
