"use client";
import { ChevronRight } from "lucide-react";
import { useState } from "react";
import { cn, focusRing } from "../ui/cn";

/** Collapsible pretty JSON. Levels deeper than `expandDepth` start folded; each fold is a real button. */
export function JsonView({
  value,
  expandDepth = 2,
  className,
  maxHeight = "32rem",
}: {
  value: unknown;
  expandDepth?: number;
  className?: string;
  maxHeight?: string;
}) {
  return (
    <div
      className={cn(
        "min-w-0 overflow-auto [contain:inline-size] rounded-md border border-slate-200 bg-white p-2 font-mono text-xs leading-5",
        className,
      )}
      style={{ maxHeight }}
      data-testid="json-view"
    >
      <JsonNode value={value} depth={0} expandDepth={expandDepth} last />
    </div>
  );
}

function JsonNode({
  name,
  value,
  depth,
  expandDepth,
  last,
}: {
  name?: string;
  value: unknown;
  depth: number;
  expandDepth: number;
  last: boolean;
}) {
  const [open, setOpen] = useState(depth < expandDepth);
  const key = name !== undefined && <span className="text-sky-800">{JSON.stringify(name)}: </span>;
  const comma = last ? "" : ",";
  if (typeof value !== "object" || value === null) {
    return (
      <div style={{ paddingLeft: depth ? 16 : 0 }}>
        {key}
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const [o, c] = isArray ? ["[", "]"] : ["{", "}"];
  if (!entries.length)
    return (
      <div style={{ paddingLeft: depth ? 16 : 0 }}>
        {key}
        {o}
        {c}
        {comma}
      </div>
    );
  return (
    <div style={{ paddingLeft: depth ? 16 : 0 }}>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className={cn(
          "-ml-4 inline-flex w-4 items-center justify-center rounded text-slate-500 hover:text-slate-900",
          focusRing,
        )}
        aria-label={`${open ? "Collapse" : "Expand"} ${name ?? "root"}`}
      >
        <ChevronRight className={cn("h-3 w-3 transition-transform", open && "rotate-90")} aria-hidden />
      </button>
      {key}
      {o}
      {open ? (
        <>
          {entries.map(([k, v], i) => (
            <JsonNode
              key={k}
              name={isArray ? undefined : k}
              value={v}
              depth={depth + 1}
              expandDepth={expandDepth}
              last={i === entries.length - 1}
            />
          ))}
          <div>
            {c}
            {comma}
          </div>
        </>
      ) : (
        <span className="text-slate-500">
          {" "}
          {isArray ? `${entries.length} items` : `${entries.length} keys`} {c}
          {comma}
        </span>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }) {
  if (value === null) return <span className="text-slate-500">null</span>;
  if (typeof value === "string") return <span className="break-all text-emerald-800">{JSON.stringify(value)}</span>;
  if (typeof value === "number") return <span className="text-violet-800">{value}</span>;
  if (typeof value === "boolean") return <span className="text-orange-800">{String(value)}</span>;
  return <span>{String(value)}</span>;
}
