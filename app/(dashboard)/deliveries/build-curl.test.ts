import { describe, expect, it } from "vitest";
import { buildCurl } from "./build-curl";

describe("buildCurl", () => {
  it("puts $TOKEN where the redacted bearer token was, and quotes the body for the shell", () => {
    const curl = buildCurl({
      method: "PATCH",
      url: "http://127.0.0.1:3000/receivers/north-psap/v3/incidents/1/label",
      headers: {
        authorization: "Bearer [redacted]",
        "content-type": "application/json",
        "service-request-id": "1a2b3c4d-0000-4000-8000-000000000000",
        "content-length": "22",
      },
      body: { label: "Pier 4's fire" },
    });
    expect(curl).toBe(
      [
        "curl -X PATCH 'http://127.0.0.1:3000/receivers/north-psap/v3/incidents/1/label'",
        '  -H "authorization: Bearer $TOKEN"',
        "  -H 'content-type: application/json'",
        "  -H 'service-request-id: 1a2b3c4d-0000-4000-8000-000000000000'",
        `  --data-raw '{"label":"Pier 4'\\''s fire"}'`,
      ].join(" \\\n"),
    );
    expect(curl).not.toContain("redacted");
  });

  it("sends no body for an event without one", () => {
    expect(
      buildCurl({ method: "POST", url: "http://x/v3/incidents/1/caller/live-video/ended", headers: {}, body: null }),
    ).toBe("curl -X POST 'http://x/v3/incidents/1/caller/live-video/ended'");
  });
});
