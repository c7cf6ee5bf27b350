import { describe, expect, it } from "vitest";
import { buildAsyncApiDocument } from "./build-asyncapi.ts";
import { V3_FLAGS } from "./capability-flags.ts";
import { V3_ROUTES, v3EventName } from "./routes.ts";

describe("AsyncAPI document", () => {
  const doc = buildAsyncApiDocument({ publicUrl: "http://localhost:3000" });
  it("lists every v3 receiver route with its method, headers and a JSON Schema payload", () => {
    expect(doc.asyncapi).toBe("3.0.0");
    for (const flag of V3_FLAGS) {
      const route = V3_ROUTES[flag];
      const op = doc.operations[`send_${route.name}`] as { bindings: { http: { method: string } } };
      expect(op.bindings.http.method).toBe(route.method);
      const message = (
        doc.components.messages as Record<
          string,
          { payload: Record<string, unknown>; headers?: { required: string[] } }
        >
      )[v3EventName(flag)]!;
      expect(message.headers?.required).toContain("Service-Request-Id");
      expect(message.payload).toHaveProperty(flag === "caller.liveVideo.ended" ? "type" : "properties");
    }
    expect((doc.channels as Record<string, { address: string }>).collaboration!.address).toBe(
      "/v3/incidents/{incidentId}/involved-agency/{agencyId}/collaboration",
    );
  });
  it("keeps nullable snapshot members required (present as null, never missing)", () => {
    const snapshot = doc.components.schemas.IncidentSnapshotV3 as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(snapshot.required).toEqual(expect.arrayContaining(["label", "summary", "callSign", "patient", "caller"]));
  });
  it("names the events the spec names: IncidentLabelChanged (null for a cleared label) and IncidentLiveVideoEndedV3 (no body)", () => {
    const messages = doc.components.messages as Record<
      string,
      { name: string; payload: { type?: string; properties?: Record<string, { anyOf?: Array<{ type: string }> }> } }
    >;
    expect(messages.IncidentLabelChanged!.name).toBe("IncidentLabelChanged");
    expect(messages.IncidentLabelChanged!.payload.properties!.label!.anyOf!.map((t) => t.type)).toEqual([
      "string",
      "null",
    ]);
    expect(messages.IncidentLiveVideoEndedV3!.name).toBe("IncidentLiveVideoEndedV3");
    expect(messages.IncidentLiveVideoEndedV3!.payload.type).toBe("null");
    expect((doc.channels as Record<string, { messages: Record<string, unknown> }>).label!.messages).toHaveProperty(
      "IncidentLabelChanged",
    );
    expect(messages).not.toHaveProperty("label");
  });
  it("PUT caller's payload is the composed caller itself, not wrapped", () => {
    const payload = (doc.components.messages as Record<string, { payload: { required: string[] } }>).caller!.payload;
    expect(payload.required).toEqual(
      expect.arrayContaining(["dataSources", "deviceInfo", "fullName", "medicData", "tracks"]),
    );
    expect(payload.required).not.toContain("caller");
    expect(JSON.stringify(doc)).toContain(
      "PUT caller carries the whole composed caller as the body itself, not wrapped",
    );
  });
  it("states the retry rule the engine schedules by (first retry, window, attempt deadline)", () => {
    expect(doc.info.description).toContain(
      "Retries: 1 second after a failure (counted from the failed attempt's end), the delay doubling each time; the last retry is capped at producedAt + 1 hour, when the event is abandoned (expired). Only HTTP 200 succeeds; an attempt has 10 seconds in all (connect, send, the whole answer); redirects are not followed.",
    );
  });
});
