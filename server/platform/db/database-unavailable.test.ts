import pg from "pg";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { asDatabaseUnavailable, isDatabaseUnavailable } from "./database-unavailable.ts";

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra });

describe("a database outage, told from other failures in one place", () => {
  it.each([
    ["a refused connection", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED", { syscall: "connect" })],
    ["a reset one", withCode("read ECONNRESET", "ECONNRESET")],
    [
      "the embedded server's socket gone",
      withCode("connect ENOENT /x/.s.PGSQL.5499", "ENOENT", { syscall: "connect" }),
    ],
    ["admin shutdown (57P01)", withCode("terminating connection due to administrator command", "57P01")],
    ["crash shutdown (57P02)", withCode("terminating connection due to crash of another server process", "57P02")],
    ["starting up (57P03)", withCode("the database system is starting up", "57P03")],
    ["a connection exception (08006)", withCode("connection failure", "08006")],
    ["the pool's connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a connection cut mid-query", new Error("Connection terminated unexpectedly")],
    ["Prisma's P1001", withCode("Can't reach database server", "P1001")],
    ["adapter-pg's kind", Object.assign(new Error("x"), { cause: { kind: "DatabaseNotReachable" } })],
    [
      "Prisma wrapping the driver adapter's error",
      Object.assign(new Error("Invalid invocation"), {
        meta: { driverAdapterError: { cause: { originalCode: "57P01" } } },
      }),
    ],
    ["an outage's AppError", new AppError("DatabaseUnavailable", "down")],
  ])("%s is one", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(asDatabaseUnavailable(error)?.code).toBe("DatabaseUnavailable");
    expect(asDatabaseUnavailable(error)?.status).toBe(503);
  });

  it.each([
    ["a unique violation", withCode("duplicate key", "23505")],
    ["a serialization failure", withCode("could not serialize access", "40001")],
    ["a file not found that is no connect", withCode("ENOENT: no such file", "ENOENT", { syscall: "open" })],
    ["a domain error", new AppError("IncidentNotFound", "no")],
    ["a plain bug", new TypeError("x is undefined")],
    ["nothing", undefined],
  ])("%s is not", (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(asDatabaseUnavailable(error)).toBeUndefined();
  });

  it("recognises pg's own error for a server that is starting up", () => {
    const error = new pg.DatabaseError("the database system is starting up", 0, "error");
    error.code = "57P03";
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
