/** Remaining time between a target and the workbench's now (real now + the clock's offset). */
export function remainingMs(opts: { targetIso: string; clockOffsetMs: number; realNowMs: number }): number {
  return Date.parse(opts.targetIso) - (opts.realNowMs + opts.clockOffsetMs);
}

/** 3_725_000 → "1:02:05"; 65_000 → "1:05"; past targets read "-0:07" (overdue), never NaN. */
export function formatCountdown(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  const sign = ms < 0 ? "-" : "";
  // Round up while counting down so "0:00" appears exactly when the target is reached.
  const total = ms < 0 ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h ? `${sign}${h}:${String(m).padStart(2, "0")}:${ss}` : `${sign}${m}:${ss}`;
}
