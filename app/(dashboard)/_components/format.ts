/** 3_660_000 → "1h 1m"; 1_500 → "1.5s". */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  const parts: string[] = [];
  const d = Math.floor(ms / 86_400_000);
  const h = Math.floor((ms % 86_400_000) / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  if (d) parts.push(`${d}d`);
  if (h) parts.push(`${h}h`);
  if (m) parts.push(`${m}m`);
  if (s && !d) parts.push(`${s}s`);
  return parts.join(" ");
}
