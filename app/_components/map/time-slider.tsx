"use client";
import { useId } from "react";
import { Button } from "../ui/button";

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

/**
 * A native range over the distinct capture times: arrows step one fix, Home/End jump to the
 * first/last, and screen readers hear the time (aria-valuetext) rather than an index.
 */
export function TimeSlider({
  times,
  atMs,
  onChange,
}: {
  times: number[];
  atMs: number;
  onChange: (ms: number) => void;
}) {
  const id = useId();
  let index = times.findLastIndex((t) => t <= atMs);
  if (index < 0) index = 0;
  const isLatest = index === times.length - 1;
  return (
    <div className="flex items-center gap-3">
      <label htmlFor={id} className="shrink-0 text-xs font-medium text-slate-700">
        Tracks as at
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={Math.max(0, times.length - 1)}
        step={1}
        value={index}
        onChange={(e) => onChange(times[Number(e.target.value)] ?? atMs)}
        aria-valuetext={`${new Date(times[index] ?? atMs).toISOString()} (${index + 1} of ${times.length})`}
        data-testid="track-time-slider"
        className="h-2 min-w-32 flex-1 cursor-pointer accent-orange-700"
        disabled={times.length < 2}
      />
      <output
        htmlFor={id}
        className="w-20 shrink-0 font-mono text-xs tabular-nums text-slate-800"
        data-testid="track-time"
      >
        {clock(times[index] ?? atMs)}Z
      </output>
      <Button size="sm" variant="secondary" disabled={isLatest} onClick={() => onChange(times.at(-1) ?? atMs)}>
        Latest
      </Button>
    </div>
  );
}
