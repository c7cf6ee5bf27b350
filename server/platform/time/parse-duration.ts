// Durations as people type them (CLI options, receiver fault windows). In
// platform because both the CLI and the receiver's faults read them.
import ms from "ms";

/** "61m", "90s", "2h", "1d", "1500ms" or a bare number of milliseconds → milliseconds; undefined when unreadable. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?\s*(ms|s|m|h|d|sec|secs|min|mins|hour|hours|day|days)?$/i.test(trimmed)) return undefined;
  const value = ms(trimmed as ms.StringValue);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}
