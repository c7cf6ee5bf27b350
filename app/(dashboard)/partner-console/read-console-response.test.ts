import { describe, expect, it } from "vitest";
import { incidentIdIn, parseResponseText, statusTone } from "./read-console-response";

describe("parseResponseText", () => {
  it("parses JSON, keeps any other text as it came, and reads an empty body as null", () => {
    expect(parseResponseText('{"incidentId":"abc","purpose":"Real"}')).toEqual({ incidentId: "abc", purpose: "Real" });
    expect(parseResponseText("[1,2]")).toEqual([1, 2]);
    expect(parseResponseText("null")).toBeNull();
    expect(parseResponseText("Bad Gateway")).toBe("Bad Gateway");
    expect(parseResponseText('{"truncated":')).toBe('{"truncated":');
    expect(parseResponseText("")).toBeNull();
  });
});

describe("incidentIdIn", () => {
  it("reads the incidentId member of an object body", () => {
    expect(incidentIdIn({ incidentId: "0b0c5b52-1c0e-4a57-9a57-200000000001" })).toBe(
      "0b0c5b52-1c0e-4a57-9a57-200000000001",
    );
    expect(incidentIdIn({ incidentId: 7 })).toBe("7");
    expect(incidentIdIn({ incidentId: "" })).toBe("");
  });

  it("is null for a body without one", () => {
    for (const body of [null, undefined, "", "incidentId", 0, {}, { id: "x" }]) expect(incidentIdIn(body)).toBeNull();
  });
});

describe("statusTone", () => {
  it("colours success, a client's error and a server's error apart", () => {
    expect([200, 201, 204, 299].map(statusTone)).toEqual(["success", "success", "success", "success"]);
    expect([300, 400, 401, 409, 499].map(statusTone)).toEqual(["warning", "warning", "warning", "warning", "warning"]);
    expect([500, 503].map(statusTone)).toEqual(["danger", "danger"]);
  });
});
