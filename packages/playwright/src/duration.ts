// Durations as a QA test writes them: milliseconds, or "90s", "61m", "2h", "1d".

/** A duration: milliseconds, or a number with a unit: "500ms", "90s", "61m", "2h", "1d". */
export type Duration = number | `${number}${"ms" | "s" | "m" | "h" | "d"}`;

/** A duration in milliseconds; throws on text that is not one (for values built at run time). */
export function durationMs(duration: Duration): number {
  if (typeof duration === "number") return duration;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(duration);
  if (!m) throw new Error(`not a duration: ${duration} (write 90s, 61m, 2h, 1d or milliseconds)`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "ms" | "s" | "m" | "h" | "d"];
  return Math.round(Number(m[1]) * unit);
}
