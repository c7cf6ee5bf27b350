// PURE: the caller-action forms' text fields as the simulator's actions (simulator.schema.ts judges
// the values: a latitude that is not a number fails there, with its message shown under the forms).
import type { INTERNET_CONNECTION_TYPES } from "@/server/incidents/snapshot.schema";
import type { TFix, TSimulatorAction } from "@/server/simulator/simulator.schema";

/** The location form as typed: numbers as text, an empty altitude meaning none. */
export type FixFields = { latitude: string; longitude: string; accuracy: string; altitude: string };
export type DeviceFields = { battery: string; connection: string };

export function readFix(f: FixFields): TFix {
  return {
    latitude: Number(f.latitude),
    longitude: Number(f.longitude),
    accuracy: Number(f.accuracy),
    altitude: f.altitude === "" ? null : Number(f.altitude),
  };
}

export function readDeviceInfo(f: DeviceFields): Extract<TSimulatorAction, { action: "deviceInfo" }> {
  return {
    action: "deviceInfo",
    batteryLevel: Number(f.battery),
    internetConnectionType: f.connection as (typeof INTERNET_CONNECTION_TYPES)[number],
  };
}
