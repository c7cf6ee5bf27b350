"use client";
// Selecting a delivery: from the list (which holds new rows back while one is read), from the
// timeline (below the fold when open: the detail is brought into view and focused), or a lane
// picked from the detail ("Show lane": the filters narrowed to its incident and integration).
import { useRef } from "react";
import type { InspectorFilters } from "./inspector-filters";

export function useDeliverySelection({
  holdAtTop,
  update,
}: {
  holdAtTop: () => void;
  update: (patch: Partial<InspectorFilters>) => void;
}) {
  const detailRef = useRef<HTMLElement>(null);
  const select = (selected: string) => {
    holdAtTop();
    update({ selected });
  };
  const selectFromTimeline = (selected: string) => {
    select(selected);
    requestAnimationFrame(() => {
      detailRef.current?.scrollIntoView({ block: "start", behavior: "instant" as ScrollBehavior });
      detailRef.current?.focus({ preventScroll: true });
    });
  };
  const showLane = (incident: string, integration: string) =>
    update({ incident, integration, state: "", status: "", failed: "", within: "", q: "" });
  return { detailRef, select, selectFromTimeline, showLane };
}
