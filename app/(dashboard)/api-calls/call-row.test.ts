import { expect, it } from "vitest";
import { shortOperation } from "./call-row";

it("keeps an operation's tail whole in a narrow row", () => {
  expect(shortOperation("PATCH /v1/incidents/{incidentId}/label")).toBe("PATCH /v1/incidents/{id}/label");
  expect(shortOperation("POST /v1/incidents/{incidentId}/caller/track")).toBe("POST …/{id}/caller/track");
  expect(shortOperation("POST /v1/calls/{callId}/end")).toBe("POST /v1/calls/{id}/end");
  expect(shortOperation("token client_credentials")).toBe("token client_credentials");
});
