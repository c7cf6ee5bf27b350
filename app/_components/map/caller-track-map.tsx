"use client";
import type { TTrack } from "@/server/incidents/snapshot.schema";
import { useMemo, useRef, useState } from "react";
import { cn } from "../ui/cn";
import { EmptyState } from "../ui/empty-state";
import { PRE_HYDRATION_WIDTH, useElementWidth } from "../ui/use-element-width";
import { MapBase } from "./map-base";
import { fitView } from "./project-tracks";
import { captureTimes, tracksAt } from "./select-tracks";
import { TrackLayer } from "./track-layer";
import { TrackLegend } from "./track-legend";
import { TrackTable } from "./track-table";
import { TimeSlider } from "./time-slider";

export type CallerTrackMapProps = {
  tracks: TTrack[];
  /** XYZ template ("…/{z}/{x}/{y}.png"); defaults to NEXT_PUBLIC_MAP_TILE_URL. Unset → offline coordinate grid. */
  tileUrl?: string;
  attribution?: string;
  height?: number;
  /** Controlled time (ms); uncontrolled starts at the latest capture. */
  atMs?: number;
  onAtMsChange?: (atMs: number) => void;
  /** A narrow map beside other facts: no table of fixes under it, the slider and legend stacked. */
  compact?: boolean;
  className?: string;
};

/** Caller tracks (spec: caller.tracks) on a Web Mercator SVG: one colour per source, accuracy circles, a time slider. */
export function CallerTrackMap({
  tracks,
  tileUrl = process.env.NEXT_PUBLIC_MAP_TILE_URL,
  attribution = process.env.NEXT_PUBLIC_MAP_ATTRIBUTION,
  height = 420,
  atMs,
  onAtMsChange,
  compact = false,
  className,
}: CallerTrackMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box, PRE_HYDRATION_WIDTH);
  const times = useMemo(() => captureTimes(tracks), [tracks]);
  const [ownAt, setOwnAt] = useState<number | null>(null);
  const latest = times.at(-1) ?? 0;
  const at = atMs ?? ownAt ?? latest;
  const setAt = (v: number) => (onAtMsChange ? onAtMsChange(v) : setOwnAt(v));
  // The view fits ALL locations, not only those visible now, so scrubbing never makes the map jump.
  const view = useMemo(
    () =>
      fitView({
        points: tracks.flatMap((t) =>
          t.track.map((l) => ({
            latitude: l.latitude,
            longitude: l.longitude,
            radiusM: l.type === "Measured" ? l.accuracy : 0,
          })),
        ),
        width,
        height,
        padding: 36,
      }),
    [tracks, width, height],
  );
  const visible = useMemo(() => tracksAt(tracks, at), [tracks, at]);
  const visibleCount = visible.reduce((n, t) => n + t.track.length, 0);

  if (!times.length)
    return (
      <EmptyState title="No caller location yet">
        Locations appear here as sources (AML, the mobile app, an entered address…) report them.
      </EmptyState>
    );

  return (
    <div className={cn("min-w-0", className)} data-testid="caller-track-map">
      <div
        ref={box}
        className="relative overflow-hidden rounded-md border border-slate-200 bg-slate-50"
        style={{ height }}
      >
        <svg
          width={width}
          height={height}
          role="img"
          aria-label={`Caller locations at ${new Date(at).toISOString()}: ${visibleCount} of ${tracks.reduce((n, t) => n + t.track.length, 0)} shown`}
          data-testid="track-map-svg"
          data-visible-points={visibleCount}
          className="block select-none"
        >
          <MapBase view={view} tileUrl={tileUrl} />
          <TrackLayer view={view} tracks={visible} />
        </svg>
        {tileUrl && attribution && (
          <div className="absolute bottom-0 right-0 bg-white/80 px-1 text-[10px] text-slate-600">{attribution}</div>
        )}
        {!tileUrl && (
          // Without tiles the lines are a coordinate grid, not streets: said on the map itself so nobody reads it as one.
          <p
            className="absolute bottom-5 right-1 rounded bg-white/90 px-1.5 py-0.5 text-[11px] text-slate-700"
            data-testid="offline-grid-caption"
          >
            Offline grid, no map tiles configured
          </p>
        )}
      </div>
      <div className={cn("mt-3 grid gap-3", !compact && "lg:grid-cols-[1fr_auto] lg:items-start")}>
        <TimeSlider times={times} atMs={at} onChange={setAt} />
        <TrackLegend tracks={tracks} visible={visible} />
      </div>
      {!compact && <TrackTable tracks={visible} />}
    </div>
  );
}
