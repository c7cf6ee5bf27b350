/**
 * A moment relative to the workbench's now, as a person says it: "just now", "12 s ago",
 * "5 min ago", "1 h 3 min ago", "3 d ago"; a future moment reads "in 8 s". Whole units, rounded
 * down, so an age never reads younger than it is. Not finite → "—".
 */
export function formatAge(atMs: number, nowMs: number): string {
  const delta = nowMs - atMs;
  if (!Number.isFinite(delta)) return "—";
  const past = delta >= 0;
  const s = Math.floor(Math.abs(delta) / 1000);
  if (s < 5) return past ? "just now" : "in a moment";
  const span = spanOf(s);
  return past ? `${span} ago` : `in ${span}`;
}

/** 42 → "42 s"; 300 → "5 min"; 3_780 → "1 h 3 min"; 266_400 → "3 d 2 h". */
export function spanOf(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** "2026-11-28 03:16:48 UTC": the exact time shown on hover beside a relative one. */
export function formatExact(iso: string): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? `${new Date(t).toISOString().replace("T", " ").slice(0, 19)} UTC` : iso;
}
