"use client";
import { useMemo, useRef, useState } from "react";
import { Badge, type BadgeTone } from "../ui/badge";
import { cn, focusRing } from "../ui/cn";
import { PRE_HYDRATION_WIDTH, useElementWidth } from "../ui/use-element-width";
import { AttemptLane } from "./attempt-lane";
import { type DeliveryLane, DELIVERY_WINDOW_MS, laneEndMs } from "./delivery-lane";
import { createTimeScale, type ScaleKind } from "./time-scale";

export type { DeliveryAttempt, DeliveryLane } from "./delivery-lane";

const STATE_TONE: Record<DeliveryLane["state"], BadgeTone> = {
  pending: "neutral",
  delivering: "info",
  delivered: "success",
  expired: "danger",
  superseded: "neutral",
};
const LABEL_W = 220;

/**
 * One lane per delivery, attempts as marks on a shared time axis: backoff gaps, a head that stalls
 * later events (their dashed wait before the first attempt) and expiry at producedAt + 1 h read at
 * a glance. Input is the shape the engine's CLI prints. `nowIso` (workbench time) extends
 * unfinished lanes to now.
 */
export function AttemptTimeline({
  deliveries,
  nowIso,
  defaultScale = "log",
  className,
  onSelect,
}: {
  deliveries: DeliveryLane[];
  nowIso?: string;
  defaultScale?: ScaleKind;
  className?: string;
  onSelect?: (requestId: string) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const width = Math.max(200, useElementWidth(box, PRE_HYDRATION_WIDTH) - LABEL_W - 24);
  const [kind, setKind] = useState<ScaleKind>(defaultScale);
  const nowMs = nowIso ? Date.parse(nowIso) : undefined;
  const scale = useMemo(() => {
    const originMs = Math.min(...deliveries.map((d) => Date.parse(d.producedAt)));
    const endMs = Math.max(...deliveries.map((d) => laneEndMs(d, nowMs)));
    return createTimeScale({ originMs, endMs, width, kind });
  }, [deliveries, nowMs, width, kind]);

  if (!deliveries.length) return <p className="text-sm text-slate-500">No deliveries.</p>;

  return (
    <div
      ref={box}
      className={cn("min-w-0 rounded-md border border-slate-200 bg-white", className)}
      data-testid="attempt-timeline"
    >
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-3 py-2 text-xs">
        <Legend />
        <div role="group" aria-label="Time axis" className="inline-flex rounded-md border border-slate-300 p-0.5">
          {(["log", "linear"] as const).map((k) => (
            <button
              key={k}
              type="button"
              aria-pressed={kind === k}
              onClick={() => setKind(k)}
              className={cn(
                "rounded px-2 py-0.5",
                kind === k ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100",
                focusRing,
              )}
            >
              {k === "log" ? "Log time" : "Linear time"}
            </button>
          ))}
        </div>
      </div>
      <div className="flex px-3 pt-2">
        <div style={{ width: LABEL_W }} className="shrink-0 text-xs text-slate-500">
          since first event (UTC {new Date(scale.originMs).toISOString().slice(11, 19)})
        </div>
        <svg width={width} height={18} aria-hidden className="overflow-visible">
          {scale.ticks.map((t) => (
            <text
              key={t.offsetMs}
              x={t.x}
              y={12}
              fontSize={10}
              textAnchor={t.x < 8 ? "start" : "middle"}
              fill="#64748b"
            >
              {t.label}
            </text>
          ))}
        </svg>
      </div>
      <ul className="divide-y divide-slate-100 px-3 pb-2">
        {deliveries.map((d) => (
          <li key={d.requestId} className="flex items-center py-1.5" data-testid="attempt-lane" data-state={d.state}>
            <div style={{ width: LABEL_W }} className="min-w-0 shrink-0 pr-3">
              <button
                type="button"
                onClick={() => onSelect?.(d.requestId)}
                disabled={!onSelect}
                className={cn(
                  "block max-w-full truncate text-left text-sm font-medium text-slate-900 enabled:hover:underline",
                  focusRing,
                )}
              >
                {d.label}
              </button>
              <div className="flex min-w-0 items-center gap-1.5">
                <Badge tone={STATE_TONE[d.state]} className="block min-w-0 truncate" title={d.statusLabel ?? d.state}>
                  {d.statusLabel ?? d.state}
                </Badge>
                <span className="shrink-0 font-mono text-[10px] text-slate-500" title={d.requestId}>
                  {d.requestId.slice(0, 8)}
                </span>
              </div>
            </div>
            <AttemptLane lane={d} scale={scale} width={width} nowMs={nowMs} />
          </li>
        ))}
      </ul>
      <p className="border-t border-slate-100 px-3 py-1.5 text-[11px] text-slate-500">
        Deliveries expire {DELIVERY_WINDOW_MS / 3_600_000} h after the event was produced; dashed: waiting for the first
        attempt (behind a failing head).
      </p>
    </div>
  );
}

function Legend() {
  return (
    <ul className="flex flex-wrap items-center gap-3 text-slate-600" aria-label="Legend">
      <li className="flex items-center gap-1">
        <span aria-hidden className="h-2.5 w-2.5 rounded-full bg-emerald-600" />
        2xx
      </li>
      <li className="flex items-center gap-1">
        <span aria-hidden className="h-2.5 w-2.5 rounded-full bg-red-600" />
        failed (status / error)
      </li>
      <li className="flex items-center gap-1">
        <span aria-hidden className="h-3 w-0.5 bg-red-700" />
        expired
      </li>
      <li className="flex items-center gap-1">
        <span aria-hidden className="h-3 w-0.5 bg-sky-600" />
        now
      </li>
    </ul>
  );
}
