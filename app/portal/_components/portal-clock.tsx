"use client";
import { Clock } from "lucide-react";
import { spanOf } from "@/app/_components/ui/format-age";
import { usePortalNow } from "./use-portal-now";

/** The workbench clock in the portal's header: every age on the page is measured against it. */
export function PortalClock() {
  const { nowMs, offsetMs } = usePortalNow();
  if (nowMs === null || offsetMs === undefined) return null;
  const ahead = Math.round(offsetMs / 1000);
  return (
    <p className="flex items-center gap-1.5 text-sm text-slate-200" data-testid="portal-clock">
      <Clock className="h-4 w-4 text-orange-400" aria-hidden />
      <span className="sr-only">Workbench clock:</span>
      <time dateTime={new Date(nowMs).toISOString()} className="font-mono tabular-nums">
        {new Date(nowMs).toISOString().slice(11, 19)} UTC
      </time>
      {ahead > 0 && (
        <span className="rounded bg-orange-500/20 px-1.5 text-xs text-orange-200" data-testid="portal-clock-offset">
          +{spanOf(ahead)} ahead
        </span>
      )}
    </p>
  );
}
