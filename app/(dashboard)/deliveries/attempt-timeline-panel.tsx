"use client";
// Collapsed by default: forty lanes are a question about the whole stream ("what is this receiver
// doing over time"), asked now and then; open, they would push the list and the selection out of
// the first viewport. A click on a lane selects it and brings the detail into view with focus.
import { useMemo } from "react";
import { AttemptTimeline } from "@/app/_components/timeline/attempt-timeline";
import type { InspectorRow } from "./delivery-row";
import { type TimelineScope, timelineTitle, toTimelineLanes } from "./timeline-lanes";

export function AttemptTimelinePanel({
  rows,
  scope,
  nowMs,
  onSelect,
}: {
  /** The rows in view, newest first. */
  rows: InspectorRow[];
  scope: TimelineScope;
  nowMs: number | null;
  onSelect: (requestId: string) => void;
}) {
  const { integration, incidentId } = scope;
  const lanes = useMemo(() => toTimelineLanes(rows, { integration, incidentId }), [rows, integration, incidentId]);
  return (
    <details
      className="group min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs"
      data-testid="timeline-details"
    >
      <summary className="cursor-pointer px-4 py-2.5 text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-orange-500">
        <span id="h-timeline">{timelineTitle(scope, rows.length)}</span>{" "}
        <span className="font-normal text-slate-600">— backoff gaps, events stalled behind a failing head, expiry</span>
      </summary>
      <div className="border-t border-slate-200 p-4" role="region" aria-labelledby="h-timeline">
        {lanes.length ? (
          <AttemptTimeline
            deliveries={lanes}
            nowIso={nowMs === null ? undefined : new Date(nowMs).toISOString()}
            onSelect={onSelect}
          />
        ) : (
          <p className="text-sm text-slate-600">No deliveries match.</p>
        )}
      </div>
    </details>
  );
}
