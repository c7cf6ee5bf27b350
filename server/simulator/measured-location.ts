import type { MeasuredInput } from "../incidents/caller-track.ts";
import type { TLocation, TLocationSource } from "../incidents/snapshot.schema.ts";
import type { TFix } from "./simulator.schema.ts";

/** The device's capture time: `capturedSecondsAgo` before now on the workbench clock. */
export const measuredInput = (fix: TFix, now: Date): MeasuredInput => ({
  latitude: fix.latitude,
  longitude: fix.longitude,
  accuracy: fix.accuracy,
  altitude: fix.altitude ?? null,
  altitudeAccuracy: fix.altitudeAccuracy ?? null,
  capturedAt: new Date(now.getTime() - (fix.capturedSecondsAgo ?? 0) * 1000),
});

export function measuredLocation(options: { source: TLocationSource; fix: TFix; now: Date }): TLocation {
  const input = measuredInput(options.fix, options.now);
  return {
    type: "Measured",
    accuracy: input.accuracy,
    altitude: input.altitude ?? null,
    altitudeAccuracy: input.altitudeAccuracy ?? null,
    latitude: input.latitude,
    longitude: input.longitude,
    capturedAtUtc: input.capturedAt!.toISOString(),
    receivedAtUtc: options.now.toISOString(),
    source: options.source,
  };
}
