// Which locations the map draws at the time the slider points to (by capturedAtUtc).
import type { TLocation, TLocationSource, TTrack } from "@/server/incidents/snapshot.schema";

/** One colour per source, distinguishable and none of them the alarm red a real emergency uses. */
export const SOURCE_COLOURS: Record<TLocationSource, string> = {
  Entered: "#7c3aed",
  MobileApp: "#2563eb",
  MobileAppSms: "#0891b2",
  WebApp: "#16a34a",
  Aml: "#c2410c",
  GoogleEls: "#be185d",
};

export const SOURCE_LABELS: Record<TLocationSource, string> = {
  Entered: "Entered",
  MobileApp: "Mobile app",
  MobileAppSms: "Mobile app (SMS)",
  WebApp: "Web app",
  Aml: "AML",
  GoogleEls: "Google ELS",
};

/** Distinct capture times across all tracks, ascending: the slider's stops. */
export function captureTimes(tracks: TTrack[]): number[] {
  const times = new Set<number>();
  for (const t of tracks) for (const l of t.track) times.add(Date.parse(l.capturedAtUtc));
  return [...times].filter(Number.isFinite).sort((a, b) => a - b);
}

/** Each track cut to the locations captured at or before `atMs`, oldest first; empty tracks dropped. */
export function tracksAt(tracks: TTrack[], atMs: number): { source: TLocationSource; track: TLocation[] }[] {
  return tracks
    .map((t) => ({
      source: t.source,
      track: t.track
        .filter((l) => Date.parse(l.capturedAtUtc) <= atMs)
        .sort((a, b) => Date.parse(a.capturedAtUtc) - Date.parse(b.capturedAtUtc)),
    }))
    .filter((t) => t.track.length > 0);
}
