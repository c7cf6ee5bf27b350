// The token endpoint's error codes (platform-interface.md, "Token endpoint errors"),
// exactly as partners branch on them, plus the RFC 6749 codes of the interactive
// grants. invalid_client answers 401, everything else 400.
import { AppError } from "../platform/errors.ts";

export type TokenErrorCode =
  | "invalid_client"
  | "invalid_scope"
  | "invalid_target"
  | "ValidationFailed"
  | "invalid_request"
  | "PSAP ID invalid"
  | "PSAP not allowed"
  | "access_denied"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "unauthorized_client";

export function tokenError(code: TokenErrorCode, description: string): AppError {
  return new AppError(code, code === "invalid_client" ? 401 : 400, description);
}
