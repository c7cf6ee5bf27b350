import { Flag } from "lucide-react";
import { cn } from "./cn";

export type Purpose = "Real" | "Test" | "Demo";

/**
 * The incident's purpose (spec: purpose Real/Test/Demo). A Test incident must never look like
 * a real emergency, so it is striped, violet (not the red/orange of alarms) and says so in words;
 * colour is never the only signal.
 */
export function PurposeBadge({ purpose, className }: { purpose: Purpose; className?: string }) {
  if (purpose === "Test") {
    return (
      <span
        data-testid="purpose-badge"
        data-purpose="Test"
        className={cn(
          "inline-flex items-center gap-1.5 rounded-md border-2 border-dashed border-violet-500 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-violet-900",
          "bg-[repeating-linear-gradient(135deg,#f5f3ff_0_8px,#ede9fe_8px_16px)]",
          className,
        )}
      >
        <Flag aria-hidden className="h-3.5 w-3.5" />
        TEST — not a real emergency
      </span>
    );
  }
  if (purpose === "Demo") {
    return (
      <span
        data-testid="purpose-badge"
        data-purpose="Demo"
        className={cn(
          "inline-flex items-center rounded-md bg-sky-50 px-2 py-0.5 text-xs font-semibold text-sky-800 ring-1 ring-inset ring-sky-300",
          className,
        )}
      >
        Demo
      </span>
    );
  }
  return (
    <span
      data-testid="purpose-badge"
      data-purpose="Real"
      className={cn(
        "inline-flex items-center gap-1 rounded-md bg-red-700 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-white",
        className,
      )}
    >
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-white" />
      Real
    </span>
  );
}
