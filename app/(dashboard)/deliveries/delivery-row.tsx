"use client";
import { Badge, type BadgeTone } from "@/app/_components/ui/badge";
import { cn } from "@/app/_components/ui/cn";
import type { InspectedDelivery } from "@/server/webhooks/admin/inspect-deliveries";

export type InspectorRow = InspectedDelivery;
export const STATE_TONE: Record<InspectorRow["state"], BadgeTone> = {
  pending: "warning",
  delivering: "info",
  delivered: "success",
  expired: "danger",
};
export const ROW_HEIGHT = 52;

/** One fixed-height line of the virtual list (fixed height: the list's fast path). */
export function DeliveryRow({ row, active, selected }: { row: InspectorRow; active: boolean; selected: boolean }) {
  const last = row.attempts.at(-1);
  return (
    <div
      className={cn(
        "grid h-full grid-cols-[5.5rem_minmax(0,1fr)_5.5rem_4.5rem] items-center gap-2 border-b border-slate-100 px-3 text-sm",
        selected ? "bg-orange-50" : active ? "bg-slate-50" : "",
      )}
      data-testid="delivery-row"
      data-state={row.state}
    >
      <span className="font-mono text-xs tabular-nums text-slate-600">{row.producedAt.slice(11, 19)}</span>
      <span className="min-w-0">
        <span className="block truncate font-mono text-xs">
          {row.method} {row.path}
        </span>
        <span className="block truncate text-xs text-slate-600">
          {row.integration} · {row.event} · incident {row.incidentId.slice(0, 8)}
        </span>
      </span>
      <span>
        <Badge tone={STATE_TONE[row.state]}>{row.state}</Badge>
      </span>
      <span className="truncate font-mono text-xs text-slate-600">
        {row.attempts.length} × {last ? `${last.status ?? last.error ?? "—"}` : "—"}
      </span>
    </div>
  );
}

export function DeliveryListHeader() {
  return (
    <div className="grid grid-cols-[5.5rem_minmax(0,1fr)_5.5rem_4.5rem] gap-2 px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600">
      <span>Produced</span>
      <span>Request</span>
      <span>State</span>
      <span>Attempts</span>
    </div>
  );
}
