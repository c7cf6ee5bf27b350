import { describe, expect, it } from "vitest";
import { attemptStatus } from "./attempt-status.ts";

describe("attemptStatus", () => {
  it.each([
    [{ status: 200, error: null }, 200],
    [{ status: 503, error: "HTTP 503: only 200 accepts a delivery" }, 503],
    [{ status: null, error: "timeout: no response within 10000 ms" }, "timeout"],
    [{ status: null, error: 'refused: "x" is not a URL' }, "refused"],
    [{ status: null, error: "ECONNREFUSED: connection refused (simulated dispatcher-side network fault)" }, "refused"],
    [{ status: null, error: "ECONNRESET: socket hang up" }, "error"],
    [{ status: null, error: null }, "error"],
  ] as const)("%o → %s", (attempt, expected) => {
    expect(attemptStatus(attempt)).toBe(expected);
  });
});
