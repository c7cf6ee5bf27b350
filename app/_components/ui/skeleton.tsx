import { cn } from "./cn";

/** Placeholder while data loads; hidden from assistive tech, which gets `label` once instead. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden className={cn("animate-pulse rounded bg-slate-200/80", className)} />;
}

export function SkeletonRows({ rows = 3, label = "Loading…" }: { rows?: number; label?: string }) {
  return (
    <div role="status" className="grid gap-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-5" />
      ))}
    </div>
  );
}
