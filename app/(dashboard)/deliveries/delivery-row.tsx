"use client";
import { Badge, type BadgeTone } from "@/app/_components/ui/badge";
import { cn } from "@/app/_components/ui/cn";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { describeDeliveryStatus, summarizeAttempts } from "@/server/webhooks/admin/describe-delivery-status";
import type { InspectedDelivery } from "@/server/webhooks/admin/inspect-deliveries";

export type InspectorRow = InspectedDelivery;
export const STATE_TONE: Record<InspectorRow["state"], BadgeTone> = {
  pending: "warning",
  delivering: "info",
  delivered: "success",
  expired: "danger",
  superseded: "neutral",
};
export const ROW_HEIGHT = 52;
const COLUMNS = "grid-cols-[5.5rem_minmax(0,1fr)_minmax(0,13rem)]";

/**
 * One fixed-height line of the virtual list (fixed height: the list's fast path): when, what, and
 * the state in words that say why, with the attempts as their outcomes ("7 × 503, 1 × 200").
 */
export function DeliveryRow({ row, selected, nowMs }: { row: InspectorRow; selected: boolean; nowMs: number | null }) {
  const status = describeDeliveryStatus(row, nowMs);
  const attempts = summarizeAttempts(row.attempts);
  return (
    <div
      className={cn(
        "grid h-full items-center gap-2 border-b border-slate-100 px-3 text-sm",
        COLUMNS,
        // The keyboard's active row is marked by the list itself (only while it has focus).
        selected && "bg-orange-50",
      )}
      data-testid="delivery-row"
      data-state={row.state}
    >
      <RelativeTime iso={row.producedAt} nowMs={nowMs} className="truncate text-xs text-slate-600" />
      <span className="min-w-0">
        <span className="block truncate font-mono text-xs" title={`${row.method} ${row.path}`}>
          {row.method} {row.path}
        </span>
        <span className="block truncate text-xs text-slate-600">
          {row.integration} · {row.event} · incident {row.incidentId.slice(0, 8)} · {row.requestId.slice(0, 8)}
        </span>
      </span>
      <span className="min-w-0">
        <Badge
          tone={status.tone}
          className="block max-w-full truncate"
          title={status.label}
          data-testid="delivery-status"
        >
          {status.label}
        </Badge>
        <span
          className="mt-0.5 block truncate font-mono text-[11px] text-slate-600"
          title={`Attempts: ${attempts}`}
          data-testid="delivery-attempts"
        >
          {attempts === "—" ? "no attempt yet" : attempts}
        </span>
      </span>
    </div>
  );
}

export function DeliveryListHeader() {
  return (
    <div className={cn("grid gap-2 px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-600", COLUMNS)}>
      <span>Produced</span>
      <span>Request</span>
      <span>State · attempts</span>
    </div>
  );
}
