import { describe, expect, it } from "vitest";
import { buildRequest, shellQuote, toCurl, tokenRequestCurl } from "./build-request";
import { listOperations, type OpenApiDocument } from "./openapi-operations";

const doc: OpenApiDocument = {
  paths: {
    "/v1/incidents/{incidentId}/label": {
      patch: {
        operationId: "setLabel",
        tags: ["Incident fields"],
        security: [{ bearer: ["incident.update", "username.required"] }],
        parameters: [
          { name: "incidentId", in: "path", required: true, schema: { type: "string" } },
          { name: "if-match", in: "header", schema: { type: "string" } },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/LabelPatch" } } },
        },
      },
    },
    "/v1/agency/info": { get: { operationId: "getAgencyInfo", security: [{ bearer: ["agency.read"] }] } },
  },
  components: {
    schemas: {
      LabelPatch: {
        type: "object",
        properties: { label: { type: ["string", "null"] } },
        required: ["label"],
        example: { label: "Fall" },
      },
    },
  },
};

describe("listOperations", () => {
  it("resolves the body $ref, splits parameters and collects scopes", () => {
    const [setLabel, info] = listOperations(doc);
    expect(setLabel).toMatchObject({
      id: "setLabel",
      method: "PATCH",
      tag: "Incident fields",
      scopes: ["incident.update", "username.required"],
      example: { label: "Fall" },
      bodyRequired: true,
    });
    expect(setLabel!.body!.properties!.label!.type).toEqual(["string", "null"]);
    expect(setLabel!.pathParams.map((p) => p.name)).toEqual(["incidentId"]);
    expect(setLabel!.headerParams.map((p) => p.name)).toEqual(["if-match"]);
    expect(info).toMatchObject({ id: "getAgencyInfo", method: "GET", body: null });
  });
});

describe("buildRequest and toCurl", () => {
  const [setLabel, info] = listOperations(doc);
  it("fills the path, adds the token and JSON body, skips empty headers", () => {
    const req = buildRequest({
      origin: "http://localhost:4000",
      operation: setLabel!,
      pathValues: { incidentId: "a b" },
      headerValues: { "if-match": "" },
      body: { label: "it's" },
      token: "T",
    });
    expect(req).toEqual({
      method: "PATCH",
      url: "http://localhost:4000/v1/incidents/a%20b/label",
      headers: { accept: "application/json", authorization: "Bearer T", "content-type": "application/json" },
      body: '{\n  "label": "it\'s"\n}',
    });
    expect(toCurl(req)).toBe(
      [
        "curl -X PATCH 'http://localhost:4000/v1/incidents/a%20b/label'",
        "  -H 'accept: application/json'",
        "  -H 'authorization: Bearer T'",
        "  -H 'content-type: application/json'",
        `  --data-raw '{\n  "label": "it'\\''s"\n}'`,
      ].join(" \\\n"),
    );
  });
  it("sends no body for an operation without one", () => {
    expect(
      buildRequest({ origin: "", operation: info!, pathValues: {}, headerValues: {}, body: undefined, token: null }),
    ).toMatchObject({ body: null, headers: { accept: "application/json" } });
  });
  it("quotes for the shell and masks the client secret", () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
    const curl = tokenRequestCurl("http://x", {
      grant_type: "client_credentials",
      client_id: "c",
      client_secret: "s3cret",
      username: "",
    });
    expect(curl).toContain("client_secret=********");
    expect(curl).not.toContain("s3cret");
    expect(curl).not.toContain("username");
  });
});
