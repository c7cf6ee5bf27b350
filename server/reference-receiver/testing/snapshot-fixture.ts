// Valid v3 snapshots and locations for receiver tests (every member present).
import { randomUUID } from "node:crypto";
import { emptyCaller, type TIncidentSnapshotV3, type TLocation } from "../../incidents/snapshot.schema.ts";

export const NORTH_PSAP = "0b0c5b52-1c0e-4a57-9a57-000000000001";

export function makeSnapshot(over: Partial<TIncidentSnapshotV3> = {}): TIncidentSnapshotV3 {
  const id = over.id ?? randomUUID();
  return {
    id,
    purpose: "Real",
    openUrl: `http://localhost:3000/portal/incidents/${id}`,
    createdAtUtc: "2026-11-22T06:00:00.000Z",
    caller: emptyCaller("+4799999999"),
    involvedAgencies: [{ id: NORTH_PSAP, displayName: "North PSAP", collaboration: "Owner", invitedBy: null }],
    label: null,
    summary: null,
    callSign: null,
    patient: { description: null },
    ...over,
  };
}

export function knownLocation(latitude: number, longitude: number, at = "2026-11-22T06:01:00.000Z"): TLocation {
  return { type: "Known", latitude, longitude, capturedAtUtc: at, receivedAtUtc: at, source: "Entered" };
}

export function measuredLocation(
  latitude: number,
  longitude: number,
  source: TLocation["source"] = "MobileApp",
  at = "2026-11-22T06:02:00.000Z",
): TLocation {
  return {
    type: "Measured",
    accuracy: 12,
    altitude: null,
    altitudeAccuracy: null,
    latitude,
    longitude,
    capturedAtUtc: at,
    receivedAtUtc: at,
    source,
  };
}
