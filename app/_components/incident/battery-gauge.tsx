import { cn } from "../ui/cn";

/** Battery as a gauge (role="meter") with the number in text; red at ≤ 15 %, amber at ≤ 30 %. null → "not known". */
export function BatteryGauge({ level }: { level: number | null }) {
  if (level === null) return <span className="text-slate-500">not known</span>;
  const tone = level <= 15 ? "bg-red-600" : level <= 30 ? "bg-amber-500" : "bg-emerald-600";
  return (
    <span className="inline-flex items-center gap-2">
      <span
        role="meter"
        aria-label="Battery"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={level}
        aria-valuetext={`${level}%`}
        className="relative inline-flex h-3.5 w-8 rounded-sm border border-slate-500 p-px after:absolute after:-right-[3px] after:top-1 after:h-1.5 after:w-[2px] after:rounded-r-sm after:bg-slate-500"
      >
        <span className={cn("h-full rounded-[1px]", tone)} style={{ width: `${level}%` }} />
      </span>
      <span className={cn("tabular-nums", level <= 15 && "font-semibold text-red-700")}>{level}%</span>
    </span>
  );
}
