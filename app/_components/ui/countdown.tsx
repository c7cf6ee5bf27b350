"use client";
import { useEffect, useRef, useState } from "react";
import { cn } from "./cn";
import { formatCountdown, remainingMs } from "./format-countdown";

/**
 * Time left until `targetIso` on the WORKBENCH clock (a fault's end, a delivery's expiry):
 * pass the clock's `offsetMs` (trpc.clock.show) so a +61 min jump shows as expired at once.
 */
export function Countdown({
  targetIso,
  clockOffsetMs,
  label,
  expiredText = "expired",
  warnBelowMs = 10_000,
  onExpire,
  className,
}: {
  targetIso: string;
  clockOffsetMs: number;
  label?: string;
  expiredText?: string;
  warnBelowMs?: number;
  onExpire?: () => void;
  className?: string;
}) {
  const [realNow, setRealNow] = useState<number | null>(null);
  useEffect(() => {
    setRealNow(Date.now());
    const t = setInterval(() => setRealNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  const left = realNow === null ? null : remainingMs({ targetIso, clockOffsetMs, realNowMs: realNow });
  const expired = left !== null && left <= 0;
  // Fire once per reaching the target, even when the caller passes a new inline function each render.
  const onExpireRef = useRef(onExpire);
  onExpireRef.current = onExpire;
  useEffect(() => {
    if (expired) onExpireRef.current?.();
  }, [expired]);

  return (
    <span
      data-testid="countdown"
      data-expired={expired || undefined}
      className={cn(
        "inline-flex items-baseline gap-1.5 rounded-md px-2 py-0.5 font-mono text-sm tabular-nums ring-1 ring-inset",
        expired
          ? "bg-slate-100 text-slate-600 ring-slate-200"
          : left !== null && left < warnBelowMs
            ? "bg-amber-50 text-amber-900 ring-amber-200"
            : "bg-white text-slate-900 ring-slate-200",
        className,
      )}
      title={`until ${targetIso}`}
    >
      {label && <span className="font-sans text-xs text-slate-600">{label}</span>}
      <span>{left === null ? "–:––" : expired ? expiredText : formatCountdown(left)}</span>
    </span>
  );
}
