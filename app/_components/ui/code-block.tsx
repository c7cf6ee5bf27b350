"use client";
import { Check, Copy } from "lucide-react";
import { cn, focusRing } from "./cn";
import { useCopy } from "./use-copy";

/** Preformatted text with a copy button (curl commands, tokens' decoded claims, raw bodies). */
export function CodeBlock({
  code,
  label = "Copy",
  className,
  maxHeight = "24rem",
}: {
  code: string;
  label?: string;
  className?: string;
  maxHeight?: string;
}) {
  const { state, copy } = useCopy(code);
  const copied = state === "copied";
  return (
    <div className={cn("group relative min-w-0 rounded-md border border-slate-800 bg-slate-950", className)}>
      <pre
        className="overflow-auto [contain:inline-size] p-3 pr-20 font-mono text-xs leading-relaxed text-slate-100"
        style={{ maxHeight }}
        tabIndex={0}
      >
        {code}
      </pre>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={copied ? "Copied" : label}
        className={cn(
          "absolute right-2 top-2 inline-flex items-center gap-1 rounded bg-slate-800 px-2 py-1 text-xs text-slate-100 hover:bg-slate-700",
          focusRing,
        )}
      >
        {copied ? <Check className="h-3.5 w-3.5" aria-hidden /> : <Copy className="h-3.5 w-3.5" aria-hidden />}
        <span aria-live="polite">
          {copied ? "Copied" : state === "failed" ? "Copy blocked: select the text" : "Copy"}
        </span>
      </button>
    </div>
  );
}
