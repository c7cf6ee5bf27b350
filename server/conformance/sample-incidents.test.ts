import { describe, expect, it } from "vitest";
import { ZIncidentSnapshotV3, ZLocation, ZTrack } from "../incidents/snapshot.schema.ts";
import { knownLocation, measuredLocation, sampleIncident, sampleTracks } from "./sample-incidents.ts";
import { declaredSpecificSteps } from "./checks/specific-routes.ts";
import { FULL_ABOUT } from "./testing/fixture-receiver.ts";

const deps = {
  now: () => new Date(Date.UTC(2026, 10, 22, 6)),
  portalUrl: "http://localhost:3000",
  agency: { id: "0b0c5b52-1c0e-4a57-9a57-000000000001", displayName: "North PSAP" },
};

describe("sample incidents", () => {
  it("are valid v3 snapshots: full with tracks, all-null, Test", () => {
    const full = sampleIncident(deps, { tracks: sampleTracks(deps) });
    expect(ZIncidentSnapshotV3.parse(full).purpose).toBe("Demo");
    const empty = ZIncidentSnapshotV3.parse(sampleIncident(deps, { nullable: true }));
    expect(empty).toMatchObject({ label: null, summary: null, callSign: null, patient: { description: null } });
    expect(empty.caller).toMatchObject({
      phoneNumber: null,
      deviceInfo: null,
      medicData: null,
      chat: null,
      liveVideo: null,
      fullName: null,
      tracks: [],
    });
    expect(ZIncidentSnapshotV3.parse(sampleIncident(deps, { purpose: "Test" })).purpose).toBe("Test");
    expect(sampleIncident(deps).id).not.toBe(sampleIncident(deps).id);
  });

  it("a Known location has no accuracy keys at all (absent, not null)", () => {
    const known = knownLocation(deps);
    expect(ZLocation.parse(known)).toEqual(known);
    expect(Object.keys(known)).not.toContain("accuracy");
    expect(Object.keys(known)).not.toContain("altitude");
    expect(ZLocation.parse(measuredLocation(deps, { metres: 5 }))).toMatchObject({
      type: "Measured",
      accuracy: 5,
      altitude: null,
    });
    for (const t of sampleTracks(deps)) expect(ZTrack.parse(t)).toEqual(t);
  });

  it("specific routes follow the declaration; caller.changed supersedes the three caller PATCH routes", () => {
    const incident = sampleIncident(deps);
    const specific = declaredSpecificSteps(FULL_ABOUT, incident, deps);
    expect(specific.flags).toContain("caller.fullNameChanged");
    expect(specific.steps.map((s) => `${s.method} ${s.path.replace(incident.id, "{id}")}`)).toContain(
      "PATCH /v3/incidents/{id}/label",
    );
    const composed = {
      ...FULL_ABOUT,
      supports: {
        incident: {
          ...FULL_ABOUT.supports.incident,
          caller: { ...FULL_ABOUT.supports.incident!.caller, changed: true },
        },
      },
    };
    const flags = declaredSpecificSteps(composed, incident, deps).flags;
    expect(flags).toContain("caller.changed");
    expect(flags).not.toContain("caller.fullNameChanged");
    expect(flags).not.toContain("caller.deviceInfoChanged");
    expect(
      declaredSpecificSteps({ version: "3.0", supports: { incident: { created: true } } }, incident, deps).steps,
    ).toEqual([]);
  });
});
