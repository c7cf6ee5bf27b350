"use client";
import { Check, Copy } from "lucide-react";
import { cn, focusRing } from "./cn";
import { useCopy } from "./use-copy";

/**
 * A small copy button beside an id, a URL or a body. `label` names what is copied for screen
 * readers ("Copy request id"); where the clipboard is blocked it says so (use-copy.ts).
 */
export function CopyButton({
  value,
  label,
  className,
  showLabel = false,
  title,
}: {
  value: string;
  label: string;
  className?: string;
  /** Show `label` beside the icon (a button in a toolbar), not only to screen readers. */
  showLabel?: boolean;
  /** A longer explanation on hover (what the copied text holds). */
  title?: string;
}) {
  const { state, copy } = useCopy(value);
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={label}
      title={state === "failed" ? "Copy blocked here: select the text" : (title ?? label)}
      className={cn(
        "inline-flex h-6 shrink-0 items-center gap-1 rounded px-1.5 text-xs text-slate-600 hover:bg-slate-100 hover:text-slate-900",
        focusRing,
        className,
      )}
    >
      {state === "copied" ? (
        <Check className="h-3.5 w-3.5" aria-hidden />
      ) : (
        <Copy className="h-3.5 w-3.5" aria-hidden />
      )}
      <span aria-live="polite" className={state === "idle" && !showLabel ? "sr-only" : undefined}>
        {state === "copied" ? "Copied" : state === "failed" ? "Blocked" : label}
      </span>
    </button>
  );
}
