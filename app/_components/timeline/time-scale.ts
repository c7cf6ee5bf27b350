// The time axis of AttemptTimeline. Backoff spans 1 s … 1 h (spec: retries for one hour), four
// orders of magnitude: on a linear axis the first five attempts sit in one pixel. The default is
// a log axis of time since the first event, log10(1 + t/1s), so 1 s, 2 s, 4 s gaps and the +1 h
// expiry are all visible at once; "linear" stays available for reading real proportions.

export type ScaleKind = "log" | "linear";
export type Tick = { offsetMs: number; x: number; label: string };
export type TimeScale = { x: (ms: number) => number; ticks: Tick[]; originMs: number; endMs: number };

const LOG_TICKS = [0, 1_000, 10_000, 60_000, 600_000, 3_600_000, 6 * 3_600_000, 86_400_000];
const LINEAR_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400].map(
  (s) => s * 1000,
);

/** 0 → "0", 1_000 → "+1s", 90_000 → "+1m30s", 3_600_000 → "+1h". */
export function formatOffset(ms: number): string {
  if (ms === 0) return "0";
  const sign = ms < 0 ? "-" : "+";
  let s = Math.round(Math.abs(ms) / 1000);
  if (s === 0) return `${sign}${Math.abs(ms)}ms`;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return sign + [h && `${h}h`, m && `${m}m`, s && `${s}s`].filter(Boolean).join("");
}

export function createTimeScale(opts: {
  originMs: number;
  endMs: number;
  width: number;
  kind: ScaleKind;
  targetTicks?: number;
}): TimeScale {
  const { originMs, width, kind, targetTicks = 6 } = opts;
  const endMs = Math.max(opts.endMs, originMs + 1_000);
  const span = endMs - originMs;
  // Rounded to 1/100 px: Node's and the browser's log10 may differ in the last bits (hydration).
  const round = (n: number) => Math.round(n * 100) / 100;
  const x =
    kind === "log"
      ? (ms: number) => round((width * Math.log10(1 + Math.max(0, ms - originMs) / 1000)) / Math.log10(1 + span / 1000))
      : (ms: number) => round((width * Math.max(0, ms - originMs)) / span);
  const offsets =
    kind === "log"
      ? LOG_TICKS.filter((t) => t <= span)
      : (() => {
          const step = LINEAR_STEPS.find((s) => span / s <= targetTicks) ?? LINEAR_STEPS.at(-1)!;
          return Array.from({ length: Math.floor(span / step) + 1 }, (_, i) => i * step);
        })();
  return {
    x,
    originMs,
    endMs,
    ticks: offsets.map((o) => ({ offsetMs: o, x: x(originMs + o), label: formatOffset(o) })),
  };
}
