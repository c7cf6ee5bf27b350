import { describe, expect, it } from "vitest";
import { safePortalNext, signInTarget } from "./safe-portal-next";

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

describe("signInTarget", () => {
  it("goes to the page asked for, else to the incident list, never elsewhere", () => {
    expect(signInTarget("/portal/incidents/0b0c5b52-1c0e-4a57-9a57-200000000001")).toBe(
      "/portal/incidents/0b0c5b52-1c0e-4a57-9a57-200000000001",
    );
    expect(signInTarget(null)).toBe("/portal/incidents");
    expect(signInTarget("//evil.example/portal/x")).toBe("/portal/incidents");
  });
});
