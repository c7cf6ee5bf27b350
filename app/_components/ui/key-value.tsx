import type { ReactNode } from "react";
import { cn } from "./cn";

export type KeyValueItem = { label: ReactNode; value: ReactNode; mono?: boolean };

/** null / undefined / "" values read "—" (the snapshot's nullable members), never crash or vanish. */
export function KeyValueList({
  items,
  columns = 1,
  className,
}: {
  items: KeyValueItem[];
  columns?: 1 | 2 | 3;
  className?: string;
}) {
  return (
    <dl
      className={cn(
        "grid gap-x-6 gap-y-2 text-sm",
        columns === 2 && "sm:grid-cols-2",
        columns === 3 && "sm:grid-cols-3",
        className,
      )}
    >
      {items.map((item, i) => (
        <div key={i} className="min-w-0">
          <dt className="text-xs text-slate-600">{item.label}</dt>
          <dd className={cn("break-words text-slate-900", item.mono && "font-mono text-xs")}>{orDash(item.value)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function orDash(value: ReactNode): ReactNode {
  return value === null || value === undefined || value === "" ? <span className="text-slate-500">—</span> : value;
}
