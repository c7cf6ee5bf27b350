import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./safe-return-path.ts";

describe("safeReturnPath", () => {
  it.each([
    ["/incidents?state=open", "/incidents?state=open"],
    ["/admin", "/admin"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["javascript:alert(1)", "/"],
    ["/ok\nSet-Cookie: x", "/"],
    ["/auth/sign-in", "/"],
    ["/auth/callback?next=/auth/cli", "/"],
    ["/auth/cli?port=50000&state=s", "/auth/cli?port=50000&state=s"],
    ["/auth/cli", "/auth/cli"],
    ["/auth/cli/token", "/"],
    ["/auth/clix", "/"],
    ["", "/"],
    [undefined, "/"],
    [`/${"a".repeat(2001)}`, "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
