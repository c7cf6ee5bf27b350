// Hand-built IncidentChange values, exactly what the incident aggregate hands
// to notifyChangeSubscribers: for planner tables and outbox tests until (and
// beside) the real aggregate.
import type { IncidentChange, IncidentChangeKind } from "../../incidents/change-record.ts";
import {
  emptyCaller,
  type TIncidentSnapshotV3,
  type TLocation,
  type TLocationSource,
} from "../../incidents/snapshot.schema.ts";

export const NORTH = "0b0c5b52-1c0e-4a57-9a57-000000000001";
export const EMS = "0b0c5b52-1c0e-4a57-9a57-000000000002";
export const FIRE = "0b0c5b52-1c0e-4a57-9a57-000000000003";

export function measured(source: TLocationSource, at: string, lat = 60.17, lon = 24.94): TLocation {
  return {
    type: "Measured",
    accuracy: 12,
    altitude: null,
    altitudeAccuracy: null,
    latitude: lat,
    longitude: lon,
    capturedAtUtc: at,
    receivedAtUtc: at,
    source,
  };
}

export function buildSnapshot(overrides: Partial<TIncidentSnapshotV3> & { id: string }): TIncidentSnapshotV3 {
  return {
    purpose: "Real",
    openUrl: `http://localhost:3000/portal/incidents/${overrides.id}`,
    createdAtUtc: "2026-11-22T06:00:00.000Z",
    caller: emptyCaller("+358401234567"),
    involvedAgencies: [{ id: NORTH, displayName: "North PSAP", collaboration: "Owner", invitedBy: null }],
    label: null,
    summary: null,
    callSign: null,
    patient: { description: null },
    ...overrides,
  };
}

export function buildChange(
  kind: IncidentChangeKind,
  snapshot: TIncidentSnapshotV3,
  options: { seq?: number; producedAt?: Date } = {},
): IncidentChange {
  return {
    ...kind,
    incidentId: snapshot.id,
    seq: options.seq ?? 1,
    producedAt: options.producedAt ?? new Date("2026-11-22T06:00:00.000Z"),
    actor: "test",
    snapshot,
  };
}
