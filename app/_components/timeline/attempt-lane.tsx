import { type DeliveryLane, DELIVERY_WINDOW_MS, describeLane, isSuccess, laneEndMs } from "./delivery-lane";
import { formatOffset, type TimeScale } from "./time-scale";

const H = 30;
const MID = 17;

/** One delivery drawn on the shared scale; the words are in a sr-only sentence, the SVG is decoration. */
export function AttemptLane({
  lane,
  scale,
  width,
  nowMs,
}: {
  lane: DeliveryLane;
  scale: TimeScale;
  width: number;
  nowMs?: number;
}) {
  const produced = Date.parse(lane.producedAt);
  const x0 = scale.x(produced);
  const xEnd = scale.x(laneEndMs(lane, nowMs));
  const first = lane.attempts[0];
  const xFirst = first ? scale.x(Date.parse(first.at)) : xEnd;
  const xExpiry = scale.x(produced + DELIVERY_WINDOW_MS);
  const expiryVisible = produced + DELIVERY_WINDOW_MS <= scale.endMs;
  const open = lane.state === "pending" || lane.state === "delivering";
  return (
    <div className="min-w-0 flex-1">
      <span className="sr-only">{describeLane(lane)}</span>
      <svg width={width} height={H} aria-hidden className="block overflow-visible">
        {scale.ticks.map((t) => (
          <line key={t.offsetMs} x1={t.x} x2={t.x} y1={0} y2={H} stroke="#f1f5f9" />
        ))}
        {expiryVisible && open && (
          <line x1={xExpiry} x2={xExpiry} y1={4} y2={H - 2} stroke="#fca5a5" strokeDasharray="2 2" />
        )}
        <circle cx={x0} cy={MID} r={2.5} fill="#64748b" />
        {xFirst > x0 + 1 && (
          <line x1={x0} x2={xFirst} y1={MID} y2={MID} stroke="#94a3b8" strokeWidth={2} strokeDasharray="3 3" />
        )}
        {xFirst - x0 > 40 && (
          <text x={(x0 + xFirst) / 2} y={MID - 5} fontSize={9} textAnchor="middle" fill="#64748b">
            waited {formatOffset((first ? Date.parse(first.at) : (nowMs ?? produced)) - produced).slice(1)}
          </text>
        )}
        {first && (
          <line
            x1={xFirst}
            x2={xEnd}
            y1={MID}
            y2={MID}
            stroke={lane.state === "delivered" ? "#10b981" : lane.state === "expired" ? "#f87171" : "#94a3b8"}
            strokeWidth={2}
          />
        )}
        {lane.attempts.map((a, i) => {
          const x = scale.x(Date.parse(a.at));
          const prev = lane.attempts[i - 1];
          const xPrev = prev ? scale.x(Date.parse(prev.at)) : null;
          return (
            <g key={i}>
              {xPrev !== null && x - xPrev > 26 && (
                <text x={(x + xPrev) / 2} y={MID - 6} fontSize={9} textAnchor="middle" fill="#475569">
                  {formatOffset(Date.parse(a.at) - Date.parse(prev!.at))}
                </text>
              )}
              <circle
                cx={x}
                cy={MID}
                r={5}
                fill={isSuccess(a) ? "#059669" : "#dc2626"}
                stroke="white"
                strokeWidth={1.5}
                data-testid="attempt-mark"
              >
                <title>{`#${i + 1} ${a.at.slice(11, 23)}Z · ${a.status ?? "no response"}${a.error ? ` · ${a.error}` : ""}${a.durationMs !== null ? ` · ${a.durationMs} ms` : ""}`}</title>
              </circle>
            </g>
          );
        })}
        {lane.state === "expired" && (
          <g>
            <line x1={xExpiry} x2={xExpiry} y1={3} y2={H - 1} stroke="#b91c1c" strokeWidth={2.5} />
            <text x={xExpiry - 4} y={H + 1} fontSize={9} textAnchor="end" fontWeight={600} fill="#b91c1c">
              expired
            </text>
          </g>
        )}
        {open && nowMs !== undefined && (
          <line x1={scale.x(nowMs)} x2={scale.x(nowMs)} y1={4} y2={H - 2} stroke="#0284c7" strokeWidth={1.5} />
        )}
      </svg>
    </div>
  );
}
