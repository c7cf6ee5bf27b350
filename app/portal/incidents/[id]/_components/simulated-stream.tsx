"use client";
import { useEffect, useState } from "react";
import { formatUtc } from "@/app/_components/incident/labels";

type Video = { state: "Active" | "Ended"; activatedAtUtc: string; endedAtUtc: string | null } | null;

/**
 * A stand-in for the caller's video: an animated test pattern with the elapsed
 * time while Active, a still "stream ended" card after. No media is carried.
 */
export function SimulatedStream({ video }: { video: Video }) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (video?.state !== "Active") return;
    const t = setInterval(() => setTick((n) => n + 1), 1_000);
    return () => clearInterval(t);
  }, [video?.state]);
  if (!video)
    return (
      <p className="rounded-md border border-dashed border-slate-300 p-6 text-sm text-slate-600">
        No live video has been activated for this incident.
      </p>
    );
  if (video.state === "Ended") {
    return (
      <figure
        className="flex aspect-video flex-col items-center justify-center rounded-lg bg-slate-800 text-slate-200"
        data-testid="stream-ended"
      >
        <p className="text-lg font-semibold">Stream ended</p>
        <figcaption className="mt-1 font-mono text-xs">{formatUtc(video.endedAtUtc)}</figcaption>
      </figure>
    );
  }
  const hue = (tick * 37) % 360;
  return (
    <figure
      className="relative aspect-video overflow-hidden rounded-lg bg-slate-950"
      data-testid="stream-live"
      aria-label="Simulated live video from the caller"
    >
      <div
        aria-hidden
        className="absolute inset-0 opacity-70 transition-colors duration-1000"
        style={{
          background: `radial-gradient(circle at ${30 + (tick % 5) * 10}% 45%, hsl(${hue} 60% 45%), transparent 60%), linear-gradient(90deg, #111827, #1f2937)`,
        }}
      />
      <span className="absolute left-3 top-3 flex items-center gap-1.5 rounded bg-red-700 px-2 py-0.5 text-xs font-bold text-white">
        <span aria-hidden className="h-2 w-2 animate-pulse rounded-full bg-white" />
        LIVE
      </span>
      <figcaption className="absolute bottom-3 left-3 rounded bg-black/60 px-2 py-0.5 font-mono text-xs text-white">
        Simulated stream · since {formatUtc(video.activatedAtUtc)}
      </figcaption>
    </figure>
  );
}
