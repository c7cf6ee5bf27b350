"use client";
import { cn } from "./cn";
import { formatAge, formatExact } from "./format-age";

/**
 * "12 s ago" against the workbench's now (`useWorkbenchNow`), the exact UTC time on hover and in
 * `dateTime`. Before the clock is known it shows the exact time, never a guess.
 */
export function RelativeTime({ iso, nowMs, className }: { iso: string; nowMs: number | null; className?: string }) {
  const exact = formatExact(iso);
  return (
    <time dateTime={iso} title={exact} className={cn("tabular-nums", className)} data-testid="relative-time">
      {nowMs === null ? exact : formatAge(Date.parse(iso), nowMs)}
    </time>
  );
}
