import { describe, expect, it } from "vitest";
import { initialBody } from "./initial-body";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("initialBody", () => {
  it("is no body for an operation without one", () => {
    expect(initialBody({ body: null, example: { label: "x" } })).toBeUndefined();
  });

  it("starts from a copy of the example, or an empty object without one", () => {
    const example = { label: "Fall, elderly", caller: { phoneNumber: "+4791234567" } };
    const body = initialBody({ body: { type: "object", properties: { label: { type: "string" } } }, example });
    expect(body).toEqual(example);
    (body as { caller: { phoneNumber: string } }).caller.phoneNumber = "changed";
    expect(example.caller.phoneNumber).toBe("+4791234567");
    expect(initialBody({ body: { type: "object" }, example: undefined })).toEqual({});
  });

  it("gives every form a fresh requestedIncidentId when the body has one", () => {
    const op = {
      body: { type: "object", properties: { requestedIncidentId: { type: "string" } } },
      example: { requestedIncidentId: "0b0c5b52-1c0e-4a57-9a57-200000000001", routingMode: "TokenAgency" },
    };
    const first = initialBody(op) as Record<string, unknown>;
    const second = initialBody(op) as Record<string, unknown>;
    expect(first.routingMode).toBe("TokenAgency");
    expect(first.requestedIncidentId).toMatch(UUID);
    expect(first.requestedIncidentId).not.toBe(op.example.requestedIncidentId);
    expect(second.requestedIncidentId).not.toBe(first.requestedIncidentId);
  });
});
