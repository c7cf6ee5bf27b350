// Caller positions. Tracks hold one entry per source (spec: "caller.tracks");
// the inbound API appends Known locations to the Entered track, simulated
// sources append Measured ones or replace their whole track. Apple EED
// positions are kept internally and never enter the tracks.
import { AppError } from "../platform/errors.ts";
import { applyIncidentChange } from "./apply-change.ts";
import type { IncidentOperation } from "./change-types.ts";
import type { TGeoPoint, TIncidentSnapshotV3, TLocation, TLocationSource } from "./snapshot.schema.ts";

function appendToTrack(snapshot: TIncidentSnapshotV3, location: TLocation) {
  const entry = snapshot.caller.tracks.find((t) => t.source === location.source);
  if (entry) entry.track.push(location);
  else snapshot.caller.tracks.push({ source: location.source, track: [location] });
}

/** POST …/caller/track: a dispatcher-established position (Known, source Entered). */
export async function addEnteredLocation(options: IncidentOperation & { point: TGeoPoint }) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident, now }) => {
      const at = now.toISOString();
      const location: Extract<TLocation, { type: "Known" }> = {
        type: "Known",
        latitude: options.point.latitude,
        longitude: options.point.longitude,
        capturedAtUtc: at,
        receivedAtUtc: at,
        source: "Entered",
      };
      appendToTrack(incident.snapshot, location);
      return { changes: [{ kind: "caller.newLocation", source: "Entered", location }], result: location };
    },
  });
}

export type MeasuredInput = {
  latitude: number;
  longitude: number;
  accuracy: number;
  altitude?: number | null;
  altitudeAccuracy?: number | null;
  capturedAt?: Date;
};

/** A simulated device's fix. Source AppleEed goes to the internal track only. */
export async function addMeasuredLocation(
  options: IncidentOperation & { source: TLocationSource | "AppleEed"; fix: MeasuredInput },
) {
  return applyIncidentChange({
    ...options,
    mutate: ({ incident, now }) => {
      const { fix } = options;
      const base = {
        type: "Measured" as const,
        accuracy: fix.accuracy,
        altitude: fix.altitude ?? null,
        altitudeAccuracy: fix.altitudeAccuracy ?? null,
        latitude: fix.latitude,
        longitude: fix.longitude,
        capturedAtUtc: (fix.capturedAt ?? now).toISOString(),
        receivedAtUtc: now.toISOString(),
      };
      if (options.source === "AppleEed") {
        incident.internal.appleEedTrack.push(base);
        return { changes: [], result: null, internalChanged: true };
      }
      const location: TLocation = { ...base, source: options.source };
      appendToTrack(incident.snapshot, location);
      return { changes: [{ kind: "caller.newLocation", source: options.source, location }], result: location };
    },
  });
}

/** Replaces one source's whole track (e.g. a coarse fix discarded for a precise one). Never empty (spec: a track event never carries an empty track). */
export async function replaceTrack(options: IncidentOperation & { source: TLocationSource; track: TLocation[] }) {
  if (options.track.length === 0)
    throw new AppError("ValidationFailed", "A track is never empty.", [
      { field: "track", message: "at least one location" },
    ]);
  return applyIncidentChange({
    ...options,
    mutate: ({ incident }) => {
      const track = options.track.map((l) => ({ ...l, source: options.source }));
      const entry = incident.snapshot.caller.tracks.find((t) => t.source === options.source);
      if (entry) entry.track = track;
      else incident.snapshot.caller.tracks.push({ source: options.source, track });
      return { changes: [{ kind: "caller.trackReplaced", source: options.source }], result: track };
    },
  });
}
