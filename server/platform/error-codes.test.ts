import { describe, expect, it } from "vitest";
import {
  APP_ERROR_CODES,
  APP_ERRORS,
  appErrorDefinition,
  oauthCodeOf,
  problemCodeOf,
  problemTitleOf,
  wireCodeOf,
} from "./error-codes.ts";
import { AppError } from "./errors.ts";

describe("the error table", () => {
  it("names every code in one casing (PascalCase); wire formats keep their own names in `wire`", () => {
    expect(APP_ERROR_CODES.filter((code) => !/^[A-Z][A-Za-z]*$/.test(code))).toEqual([]);
    expect(APP_ERROR_CODES.filter((code) => appErrorDefinition(code).wire === code)).toEqual([]);
  });

  it("gives each wire name one status, however many codes share it", () => {
    const statuses = new Map<string, Set<number>>();
    for (const code of APP_ERROR_CODES)
      statuses.set(wireCodeOf(code), (statuses.get(wireCodeOf(code)) ?? new Set()).add(APP_ERRORS[code].status));
    expect([...statuses].filter(([, s]) => s.size > 1)).toEqual([]);
    expect(APP_ERROR_CODES.filter((code) => wireCodeOf(code) === "not_found")).toEqual([
      "MemberNotFound",
      "ApiTokenNotFound",
    ]);
  });

  // The dashboard's API answered these tRPC codes by status before the table existed; clients
  // (the portal's not-found page, the inspector's retry) branch on them.
  it.each([
    [400, "BAD_REQUEST"],
    [401, "UNAUTHORIZED"],
    [403, "FORBIDDEN"],
    [404, "NOT_FOUND"],
    [409, "CONFLICT"],
    [413, "BAD_REQUEST"],
    [415, "BAD_REQUEST"],
    [500, "INTERNAL_SERVER_ERROR"],
    [503, "SERVICE_UNAVAILABLE"],
    [504, "INTERNAL_SERVER_ERROR"],
  ])("answers tRPC's code for status %i as %s", (status, trpc) => {
    const rows = APP_ERROR_CODES.filter((code) => APP_ERRORS[code].status === status);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((code) => APP_ERRORS[code].trpc !== trpc)).toEqual([]);
  });
});

describe("AppError", () => {
  it("takes its status from the table", () => {
    expect(new AppError("IncidentNotFound", "gone")).toMatchObject({
      code: "IncidentNotFound",
      status: 404,
      message: "gone",
      wireCode: "IncidentNotFound",
    });
    expect(new AppError("ScenarioTimeout", "slow").status).toBe(504);
  });

  it("renders the wire name where the wire has its own", () => {
    expect(new AppError("InvalidClient", "no").wireCode).toBe("invalid_client");
    expect(new AppError("InvalidClient", "no").status).toBe(401);
    expect(new AppError("PsapIdInvalid", "no").wireCode).toBe("PSAP ID invalid");
    expect(new AppError("LastEnabledAdmin", "no")).toMatchObject({ wireCode: "conflict", status: 409 });
  });

  it("names OAuth's own code at the token endpoint where it has one", () => {
    expect(oauthCodeOf("DatabaseUnavailable")).toBe("temporarily_unavailable");
    expect(wireCodeOf("DatabaseUnavailable")).toBe("DatabaseUnavailable");
  });

  it("writes a code the spec's problem tables lack as the spec's own there (decision 0064)", () => {
    expect([problemCodeOf("DatabaseUnavailable"), problemTitleOf("DatabaseUnavailable")]).toEqual([
      "InternalServerError",
      "Internal server error",
    ]);
    expect(APP_ERRORS.DatabaseUnavailable.status).toBe(503);
    expect([problemCodeOf("IncidentClosed"), problemTitleOf("IncidentClosed")]).toEqual([
      "IncidentClosed",
      "Incident closed",
    ]);
    expect(oauthCodeOf("InvalidClient")).toBe("invalid_client");
  });

  it("keeps field errors", () => {
    const errors = [{ field: "label", message: "Required" }];
    expect(new AppError("ValidationFailed", "bad", errors)).toMatchObject({ status: 400, errors });
  });
});
