import { describe, expect, it } from "vitest";
import { describeLoadError } from "./describe-load-error";

describe("describeLoadError", () => {
  it("says a network failure and an ended session in words, anything else as the server said it", () => {
    expect(describeLoadError({ message: "Failed to fetch" })).toBe("The workbench did not answer (no connection).");
    expect(describeLoadError({ message: "Sign in to the portal first.", data: { code: "UNAUTHORIZED" } })).toBe(
      "Your portal session has ended: sign in again.",
    );
    expect(describeLoadError({ message: "Internal error (traceId x)." })).toBe("Internal error (traceId x).");
  });
});
