import { gridLines, scaleBar, tilesFor } from "./draw-grid";
import type { MapView } from "./project-tracks";

/** Tiles when a template is configured, otherwise a graticule; always coordinate labels and a scale bar. */
export function MapBase({ view, tileUrl }: { view: MapView; tileUrl?: string }) {
  const { lats, lons } = gridLines(view, view.width > 600 ? 6 : 4);
  const bar = scaleBar(view);
  const tiles = tileUrl ? tilesFor(view, tileUrl) : [];
  return (
    <g aria-hidden>
      {tiles.map((t) => (
        <image
          key={t.key}
          href={t.url}
          x={t.left}
          y={t.top}
          width={t.size + 0.5}
          height={t.size + 0.5}
          preserveAspectRatio="none"
        />
      ))}
      <g
        stroke={tileUrl ? "rgba(15,23,42,0.25)" : "#cbd5e1"}
        strokeWidth={1}
        strokeDasharray={tileUrl ? "2 4" : undefined}
      >
        {lats.map((l) => (
          <line key={`lat${l.value}`} x1={0} x2={view.width} y1={l.at} y2={l.at} />
        ))}
        {lons.map((l) => (
          <line key={`lon${l.value}`} y1={0} y2={view.height} x1={l.at} x2={l.at} />
        ))}
      </g>
      <g fontSize={10} fill="#475569" fontFamily="ui-monospace, monospace">
        {lats.map((l) => (
          <text key={`latl${l.value}`} x={4} y={l.at - 3} paintOrder="stroke" stroke="#f8fafc" strokeWidth={3}>
            {l.label}
          </text>
        ))}
        {lons.map((l) => (
          <text
            key={`lonl${l.value}`}
            x={l.at + 3}
            y={view.height - 4}
            paintOrder="stroke"
            stroke="#f8fafc"
            strokeWidth={3}
          >
            {l.label}
          </text>
        ))}
      </g>
      <g transform={`translate(${view.width - bar.px - 16}, ${16})`}>
        <rect x={-6} y={-6} width={bar.px + 12} height={26} rx={3} fill="white" fillOpacity={0.85} />
        <path d={`M0 4 V10 H${bar.px} V4`} fill="none" stroke="#0f172a" strokeWidth={1.5} />
        <text x={bar.px / 2} y={2} textAnchor="middle" fontSize={10} fill="#0f172a">
          {bar.label}
        </text>
      </g>
    </g>
  );
}
