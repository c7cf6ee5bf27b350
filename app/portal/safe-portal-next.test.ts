import { describe, expect, it } from "vitest";
import { safePortalNext } from "./safe-portal-next";

describe("safePortalNext", () => {
  it("follows portal pages", () => {
    expect(safePortalNext("/portal/incidents/0b0c5b52-1c0e-4a57-9a57-200000000001/chat")).toBe(
      "/portal/incidents/0b0c5b52-1c0e-4a57-9a57-200000000001/chat",
    );
  });
  it("refuses other origins, other areas, odd characters and repeated values", () => {
    for (const bad of [
      "//evil.example/portal/x",
      "https://evil.example/portal/",
      "/admin",
      "/portal/../admin",
      "/portal//evil",
      "/portal/x?y=1",
      "/portal/\\evil",
      " /portal/x",
    ])
      expect(safePortalNext(bad), bad).toBeUndefined();
    expect(safePortalNext(["/portal/a", "/portal/b"])).toBeUndefined();
    expect(safePortalNext(undefined)).toBeUndefined();
  });
});
