import type { ReactNode } from "react";
import { cn } from "../ui/cn";

export type TimelineStatus = "neutral" | "info" | "success" | "warning" | "danger";
export type TimelineItem = {
  id: string;
  at: string;
  title: ReactNode;
  detail?: ReactNode;
  status?: TimelineStatus;
  meta?: ReactNode;
};

const DOT: Record<TimelineStatus, string> = {
  neutral: "bg-slate-400",
  info: "bg-sky-600",
  success: "bg-emerald-600",
  warning: "bg-amber-500",
  danger: "bg-red-600",
};

/** Vertical timeline (an incident's changes, a receiver's log), in the order given; times in UTC. */
export function Timeline({
  items,
  className,
  ariaLabel = "Timeline",
}: {
  items: TimelineItem[];
  className?: string;
  ariaLabel?: string;
}) {
  return (
    <ol aria-label={ariaLabel} className={cn("relative ml-2 border-l border-slate-200", className)}>
      {items.map((item) => (
        <li key={item.id} className="relative pb-4 pl-5 last:pb-0" data-status={item.status ?? "neutral"}>
          <span
            aria-hidden
            className={cn(
              "absolute -left-[5px] top-1.5 h-2.5 w-2.5 rounded-full ring-2 ring-white",
              DOT[item.status ?? "neutral"],
            )}
          />
          <div className="flex flex-wrap items-baseline gap-x-2">
            <time dateTime={item.at} className="font-mono text-xs tabular-nums text-slate-500">
              {item.at.replace("T", " ").replace(/\.\d+Z$|Z$/, "")}Z
            </time>
            <span className="text-sm font-medium text-slate-900">{item.title}</span>
            {item.meta}
          </div>
          {item.detail && <div className="mt-0.5 text-sm text-slate-600">{item.detail}</div>}
        </li>
      ))}
    </ol>
  );
}
