"use client";
import { useMemo, useState } from "react";
import { Badge } from "../ui/badge";
import { cn, focusRing } from "../ui/cn";
import { changedPaths, diffJsonLines, type DiffLine, type DiffRow, withContext } from "./diff-json";

const ROW: Record<DiffLine["kind"], string> = {
  same: "",
  added: "bg-emerald-50 text-emerald-950",
  removed: "bg-red-50 text-red-900 line-through decoration-red-400/60",
  changed: "bg-amber-50 text-amber-950",
};
const GUTTER: Record<DiffLine["kind"], string> = { same: " ", added: "+", removed: "−", changed: "~" };

/**
 * `value` pretty-printed with what changed since `previous` highlighted (added green, removed red
 * and struck, changed amber with the old value). The gutter also carries +/−/~ so colour is not
 * the only signal. With `previous` undefined it is a plain pretty print ("first snapshot").
 */
export function JsonDiffView({
  value,
  previous,
  maxHeight = "32rem",
  onlyChanges = true,
  className,
}: {
  value: unknown;
  previous?: unknown;
  maxHeight?: string;
  onlyChanges?: boolean;
  className?: string;
}) {
  const [changesOnly, setChangesOnly] = useState(onlyChanges);
  const lines = useMemo(() => diffJsonLines(previous === undefined ? value : previous, value), [previous, value]);
  const paths = useMemo(() => (previous === undefined ? [] : changedPaths(previous, value)), [previous, value]);
  const shown: DiffRow[] = changesOnly ? withContext(lines, 3) : lines;

  return (
    <div className={cn("min-w-0 rounded-md border border-slate-200 bg-white", className)} data-testid="json-diff">
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-2 text-xs">
        {previous === undefined ? (
          <span className="text-slate-500">No previous value to compare with.</span>
        ) : paths.length === 0 ? (
          <span className="text-slate-500">No changes.</span>
        ) : (
          <>
            <span className="font-medium text-slate-700">
              {paths.length} change{paths.length === 1 ? "" : "s"}:
            </span>
            {paths.slice(0, 8).map((p) => (
              <Badge
                key={`${p.kind}${p.path}`}
                tone={p.kind === "added" ? "success" : p.kind === "removed" ? "danger" : "warning"}
                className="font-mono font-normal"
              >
                {GUTTER[p.kind]} {p.path}
              </Badge>
            ))}
            {paths.length > 8 && <span className="text-slate-500">+{paths.length - 8} more</span>}
          </>
        )}
        {paths.length > 0 && (
          <label className="ml-auto inline-flex items-center gap-1.5 text-slate-700">
            <input
              type="checkbox"
              checked={changesOnly}
              onChange={(e) => setChangesOnly(e.target.checked)}
              className={cn("accent-orange-700", focusRing)}
            />
            only changes (3 lines of context)
          </label>
        )}
      </div>
      {/* contain: inline-size — a long line scrolls inside the pre; without it the line's width
          still sets the min-content width of every grid or flex ancestor. */}
      <pre
        className="overflow-auto [contain:inline-size] py-2 font-mono text-xs leading-5"
        style={{ maxHeight }}
        tabIndex={0}
        aria-label="JSON with changes"
      >
        {shown.map((l, i) =>
          l.kind === "gap" ? (
            <div key={i} className="my-0.5 bg-slate-50 px-6 text-slate-500 select-none">
              ⋯ {l.hidden} unchanged line{l.hidden === 1 ? "" : "s"}
            </div>
          ) : (
            <div key={i} className={cn("flex px-2", ROW[l.kind])} data-kind={l.kind} data-path={l.path}>
              <span aria-hidden className="w-4 shrink-0 select-none text-slate-500">
                {GUTTER[l.kind]}
              </span>
              <span className="sr-only">{l.kind === "same" ? "" : `${l.kind}: `}</span>
              <span className="whitespace-pre">
                {"  ".repeat(l.indent)}
                {l.text}
              </span>
              {l.was !== undefined && <span className="ml-3 text-amber-800 no-underline">← was {l.was}</span>}
            </div>
          ),
        )}
      </pre>
    </div>
  );
}
