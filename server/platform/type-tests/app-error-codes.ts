// AppError as a throw site meets it. Compiled by `npm run typecheck`, never run: every
// `@ts-expect-error` marks a mistake that must not compile — if one ever does, tsc fails on the
// unused directive. The rest are right usages that must keep compiling.
import { AppError, type AppErrorCode } from "../errors.ts";

export const rightUsages = (code: AppErrorCode) => [
  new AppError("IncidentNotFound", "No incident with that ID is accessible to the token's agency."),
  new AppError("ValidationFailed", "The request is invalid: label.", [{ field: "label", message: "Required" }]),
  new AppError(code, "Any code of the table."),
];

export const wrongUsages = (someString: string) => [
  // @ts-expect-error a code that is not a row of the table: add the row first (server/platform/error-codes.ts)
  new AppError("NoSuchCode", "detail"),
  // @ts-expect-error a wire name is not a code: "not_found" is how MemberNotFound reaches tRPC's appCode
  new AppError("not_found", "No member with that id."),
  // @ts-expect-error OAuth's error values are wire names too: the code is InvalidClient
  new AppError("invalid_client", "Unknown client."),
  // @ts-expect-error the status is the table's, never the throw site's
  new AppError("IncidentNotFound", 404, "No incident with that ID."),
  // @ts-expect-error a string is not a code
  new AppError(someString, "detail"),
];
