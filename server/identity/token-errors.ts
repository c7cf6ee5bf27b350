// The token endpoint's error codes (platform-interface.md, "Token endpoint errors"),
// exactly as partners branch on them, plus the RFC 6749 codes of the interactive
// grants. Their wire names and statuses (invalid_client 401, too_many_attempts 429,
// temporarily_unavailable 503, the rest 400) are rows of the error table (server/platform/error-codes.ts).
import { AppError } from "../platform/errors.ts";
import type { AppErrorCode } from "../platform/error-codes.ts";

/** Every code the token endpoint answers; docs/identity.md lists them (a test holds it to this). */
export const TOKEN_ERROR_CODES = [
  "InvalidClient",
  "InvalidScope",
  "InvalidTarget",
  "ValidationFailed",
  "InvalidRequest",
  "PsapIdInvalid",
  "PsapNotAllowed",
  "AccessDenied",
  "InvalidGrant",
  "UnsupportedGrantType",
  "UnauthorizedClient",
  "TooManyAttempts",
  "DatabaseUnavailable",
] as const satisfies readonly AppErrorCode[];

export type TokenErrorCode = (typeof TOKEN_ERROR_CODES)[number];

export function tokenError(code: TokenErrorCode, description: string): AppError {
  return new AppError(code, description);
}
