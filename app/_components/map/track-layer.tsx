import type { TLocation, TLocationSource } from "@/server/incidents/snapshot.schema";
import { metresToPixels, type MapView, project, toPx } from "./project-tracks";
import { SOURCE_COLOURS, SOURCE_LABELS } from "./select-tracks";

function describe(l: TLocation): string {
  const acc = l.type === "Measured" ? `±${l.accuracy} m` : "known (no accuracy)";
  return `${SOURCE_LABELS[l.source]} · ${l.type} ${acc} · ${l.latitude.toFixed(5)}, ${l.longitude.toFixed(5)} · captured ${l.capturedAtUtc}`;
}

/**
 * Measured locations: a dot inside their accuracy circle (metres → pixels at that latitude).
 * Known locations: a diamond without a circle (entered, not measured: spec says no accuracy).
 * Each source's path joins its fixes in capture order; its newest fix is drawn larger.
 */
export function TrackLayer({
  view,
  tracks,
}: {
  view: MapView;
  tracks: { source: TLocationSource; track: TLocation[] }[];
}) {
  return (
    <g>
      {tracks.map(({ source, track }) => {
        const colour = SOURCE_COLOURS[source];
        const pts = track.map((l) => {
          const p = project(view, l.latitude, l.longitude);
          return { l, x: toPx(p.x), y: toPx(p.y) };
        });
        return (
          <g key={source} data-source={source}>
            {pts.map(
              ({ l, x, y }, i) =>
                l.type === "Measured" && (
                  <circle
                    key={`acc${i}`}
                    cx={x}
                    cy={y}
                    r={toPx(Math.max(1, metresToPixels(l.accuracy, l.latitude, view.zoom)))}
                    fill={colour}
                    fillOpacity={i === pts.length - 1 ? 0.14 : 0.05}
                    stroke={colour}
                    strokeOpacity={i === pts.length - 1 ? 0.7 : 0.25}
                    strokeWidth={1}
                  />
                ),
            )}
            {pts.length > 1 && (
              <polyline
                points={pts.map((p) => `${p.x},${p.y}`).join(" ")}
                fill="none"
                stroke={colour}
                strokeWidth={2}
                strokeOpacity={0.7}
                strokeLinejoin="round"
              />
            )}
            {pts.map(({ l, x, y }, i) => {
              const last = i === pts.length - 1;
              const r = last ? 6 : 3.5;
              return l.type === "Known" ? (
                <rect
                  key={i}
                  data-testid="track-point"
                  data-kind="Known"
                  x={x - r}
                  y={y - r}
                  width={2 * r}
                  height={2 * r}
                  transform={`rotate(45 ${x} ${y})`}
                  fill={colour}
                  stroke="white"
                  strokeWidth={1.5}
                >
                  <title>{describe(l)}</title>
                </rect>
              ) : (
                <circle
                  key={i}
                  data-testid="track-point"
                  data-kind="Measured"
                  cx={x}
                  cy={y}
                  r={r}
                  fill={colour}
                  stroke="white"
                  strokeWidth={1.5}
                >
                  <title>{describe(l)}</title>
                </circle>
              );
            })}
          </g>
        );
      })}
    </g>
  );
}
