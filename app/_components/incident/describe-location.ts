// Where the caller is, in words a dispatcher reads aloud: coordinates, accuracy and source.
// Pure, so it is unit-tested; the age beside it is a RelativeTime on the workbench clock.
import type { TLocation, TTrack } from "@/server/incidents/snapshot.schema";
import { SOURCE_LABELS } from "../map/select-tracks";

/** The current position captured last, of any source (ties: the later in its track), or null. */
export function latestLocation(tracks: TTrack[]): TLocation | null {
  let best: TLocation | null = null;
  for (const t of tracks)
    for (const l of t.track) if (!best || Date.parse(l.capturedAtUtc) >= Date.parse(best.capturedAtUtc)) best = l;
  return best;
}

/** 59.9624, 10.768 → "59.96240° N, 10.76800° E" (five decimals: about a metre). */
export function formatCoordinates(latitude: number, longitude: number): string {
  const ns = latitude >= 0 ? "N" : "S";
  const ew = longitude >= 0 ? "E" : "W";
  return `${Math.abs(latitude).toFixed(5)}° ${ns}, ${Math.abs(longitude).toFixed(5)}° ${ew}`;
}

/** "±6 m" for a measured fix, "±1.2 km" past a kilometre; a Known (entered) location says so. */
export function formatAccuracy(location: TLocation): string {
  if (location.type !== "Measured") return "entered, not measured";
  const m = location.accuracy;
  return m >= 1000 ? `±${(m / 1000).toFixed(1)} km` : `±${Math.round(m)} m`;
}

/** "±6 m · Mobile app"; an entered address "Entered, not measured" (the source said once). */
export function describeFix(location: TLocation): string {
  if (location.type !== "Measured" && location.source === "Entered") return "Entered, not measured";
  return `${formatAccuracy(location)} · ${SOURCE_LABELS[location.source]}`;
}

/** "59.96240° N, 10.76800° E ±6 m · Mobile app": a place in one line. */
export function describeLocation(location: TLocation): string {
  return `${formatCoordinates(location.latitude, location.longitude)} ${describeFix(location)}`;
}
