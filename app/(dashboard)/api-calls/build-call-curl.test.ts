import { describe, expect, it } from "vitest";
import { buildCallCurl } from "./build-call-curl";

describe("buildCallCurl", () => {
  it("sends a /v1 call again with $TOKEN in place of the token, and says where to get one", () => {
    const curl = buildCallCurl("http://localhost:3000", {
      method: "POST",
      path: "/v1/incidents",
      surface: "v1",
      clientId: "partner-cad",
      agencyId: "a-1",
      username: "dispatcher.north",
      request: {
        headers: { "content-type": "application/json", authorization: "Bearer [token]", "content-length": "9" },
        query: {},
      },
      requestBody: '{"label":"It\'s"}',
    });
    expect(curl).toBe(
      [
        '# TOKEN: an access token of partner-cad (agency_context=a-1 username=dispatcher.north) from /connect/token (README, "A first call")',
        "curl -X POST 'http://localhost:3000/v1/incidents' \\",
        "  -H 'content-type: application/json' \\",
        '  -H "authorization: Bearer $TOKEN" \\',
        "  --data-raw '{\"label\":\"It'\\''s\"}'",
      ].join("\n"),
    );
  });

  it("sends a token request again with $CLIENT_SECRET for the redacted secret", () => {
    const curl = buildCallCurl("http://localhost:3000", {
      method: "POST",
      path: "/connect/token",
      surface: "token",
      clientId: "partner-cad",
      agencyId: null,
      username: null,
      request: { headers: { "content-type": "application/x-www-form-urlencoded" }, query: {} },
      requestBody: "grant_type=client_credentials&client_id=partner-cad&client_secret=%5Bredacted%5D",
    });
    expect(curl).toContain(`--data-urlencode "client_secret=$CLIENT_SECRET"`);
    expect(curl).toContain("--data-urlencode 'client_id=partner-cad'");
    expect(curl).not.toContain("redacted");
    expect(curl.split("\n")[0]).toMatch(/^# CLIENT_SECRET: partner-cad's secret/);
  });
});
