"use client";
// The selected-delivery half of the inspector: sticky beside the list on wide screens, focusable so a
// selection from the timeline can bring it into view; an id that is not one says so instead.
import type { Ref } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { DeliveryDetail } from "./delivery-detail";

export function DeliveryDetailPanel({
  ref,
  selected,
  selectedError,
  nowMs,
  clockOffsetMs,
  onShowLane,
  onSelect,
}: {
  ref: Ref<HTMLElement>;
  selected: string;
  /** Why `selected` is not a Service-Request-Id (inspector-filters.ts), if it is not. */
  selectedError: string | undefined;
  nowMs: number | null;
  clockOffsetMs: number;
  onShowLane: (incidentId: string, integration: string) => void;
  onSelect: (requestId: string) => void;
}) {
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="h-detail"
      data-testid="detail-panel"
      className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-orange-500 lg:sticky lg:top-14 lg:max-h-[calc(100vh-4.5rem)] lg:overflow-y-auto"
    >
      <header className="border-b border-slate-200 px-4 py-2.5">
        <h2 id="h-detail" className="text-sm font-semibold text-slate-900">
          Delivery
        </h2>
      </header>
      <div className="min-w-0 p-4">
        {selectedError ? (
          <Alert tone="danger" title="Delivery not found">
            {selectedError} Pick one from the list.
          </Alert>
        ) : selected ? (
          <DeliveryDetail
            key={selected}
            requestId={selected}
            nowMs={nowMs}
            clockOffsetMs={clockOffsetMs}
            onShowLane={onShowLane}
            onSelect={onSelect}
          />
        ) : (
          <p className="text-sm text-slate-600">
            Select a delivery (click it, or Tab to the list, ↑/↓ and Enter) to see why it is in its state, its request
            and responses, and what changed in the incident.
          </p>
        )}
      </div>
    </section>
  );
}
