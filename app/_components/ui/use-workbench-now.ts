"use client";
import { useEffect, useState } from "react";

/**
 * The workbench clock's now in ms (real now + the clock's offset), ticking every `everyMs`; null
 * until hydrated, so server and client render the same first frame. Pass the offset from
 * `trpc.clock.show` (dashboard) or the portal's own answer: after a +61 min jump an hour-old fix
 * must read "1 h 1 min ago", not "just now".
 */
export function useWorkbenchNow(offsetMs: number | undefined, everyMs = 1_000): number | null {
  const [realNow, setRealNow] = useState<number | null>(null);
  useEffect(() => {
    setRealNow(Date.now());
    const t = setInterval(() => setRealNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return realNow === null || offsetMs === undefined ? null : realNow + offsetMs;
}
