import { Inbox, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn";

/** What an empty list says: what would be here, and how to get some (an action). */
export function EmptyState({
  title,
  children,
  action,
  icon: Icon = Inbox,
  className,
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: LucideIcon;
  className?: string;
}) {
  return (
    <div
      className={cn(
        "flex flex-col items-center rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center",
        className,
      )}
    >
      <Icon className="h-8 w-8 text-slate-400" aria-hidden />
      <p className="mt-2 text-sm font-semibold text-slate-800">{title}</p>
      {children && <div className="mt-1 max-w-md text-sm text-slate-600">{children}</div>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}
