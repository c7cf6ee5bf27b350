import { describe, expect, it } from "vitest";
import { buildLegacySchemasDocument } from "./build-legacy-schemas.ts";
import { LEGACY_ROUTE_KEYS } from "./routes.ts";

describe("legacy JSON Schema document", () => {
  const doc = buildLegacySchemasDocument();

  it("documents every v1 and v2 route with its operation, v3 counterpart and psap.* scope", () => {
    expect(Object.keys(doc.routes.v2)).toEqual(LEGACY_ROUTE_KEYS);
    expect(doc.routes.v2.close).toMatchObject({
      operation: "POST /v2/incident/{incidentId}",
      requiredScope: "psap.incident.close",
    });
    expect(doc.routes.v1.positionReplaced).toMatchObject({
      operation: "PUT /v1/incident/{incidentId}/position",
      requiredScope: "psap.incident.position",
    });
    for (const r of Object.values(doc.routes.v2)) expect(r.requiredScope).toMatch(/^psap\./);
  });

  it("carries every schema, rename and decision; nullable members stay required (present as null)", () => {
    expect(Object.keys(doc.$defs)).toEqual(["IncidentV2", ...LEGACY_ROUTE_KEYS]);
    const incident = doc.$defs.IncidentV2 as {
      required: string[];
      properties: Record<string, { required?: string[] }>;
    };
    expect(incident.required).toEqual(
      expect.arrayContaining(["isTest", "createdTimeUtc", "classification", "deviceInfo", "psaps", "label"]),
    );
    expect(incident.properties.caller!.required).toEqual(
      expect.arrayContaining(["fullname", "phoneNumbers", "gender", "age", "medicalData", "tracks"]),
    );
    expect(doc.renames.length).toBeGreaterThanOrEqual(30);
    expect(JSON.stringify(doc.decisions)).toContain("upsert");
    expect(JSON.stringify((doc.$defs as Record<string, unknown>).positionAppended)).toContain("GoogleEls");
    expect(JSON.stringify((doc.$defs as Record<string, unknown>).positionAppended)).not.toContain('Eed"');
  });
});
