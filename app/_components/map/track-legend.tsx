import type { TLocation, TLocationSource, TTrack } from "@/server/incidents/snapshot.schema";
import { SOURCE_COLOURS, SOURCE_LABELS } from "./select-tracks";

/** One row per source present: its colour, name and how many of its fixes are shown at this time. */
export function TrackLegend({
  tracks,
  visible,
}: {
  tracks: TTrack[];
  visible: { source: TLocationSource; track: TLocation[] }[];
}) {
  const shown = new Map(visible.map((t) => [t.source, t.track.length]));
  return (
    <ul aria-label="Location sources" className="flex flex-wrap gap-x-4 gap-y-1 text-xs lg:max-w-md lg:justify-end">
      {tracks.map((t) => (
        <li key={t.source} className="flex items-center gap-1.5">
          <span
            aria-hidden
            className="inline-block h-2.5 w-2.5 rounded-full"
            style={{ background: SOURCE_COLOURS[t.source] }}
          />
          <span className="font-medium text-slate-800">{SOURCE_LABELS[t.source]}</span>
          <span className="tabular-nums text-slate-500">
            {shown.get(t.source) ?? 0}/{t.track.length}
          </span>
        </li>
      ))}
      <li className="flex items-center gap-1.5 text-slate-500">
        <svg aria-hidden width="10" height="10">
          <rect x="2" y="2" width="6" height="6" transform="rotate(45 5 5)" fill="#64748b" />
        </svg>
        known
        <svg aria-hidden width="14" height="14">
          <circle cx="7" cy="7" r="6" fill="#64748b" fillOpacity="0.15" stroke="#64748b" />
          <circle cx="7" cy="7" r="2" fill="#64748b" />
        </svg>
        measured ± accuracy
      </li>
    </ul>
  );
}
