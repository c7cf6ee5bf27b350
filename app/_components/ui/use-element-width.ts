"use client";
import { type RefObject, useEffect, useState } from "react";

/**
 * Width of an element, followed with a ResizeObserver (SVG drawings need pixel widths).
 * `initial` is what the server renders and the page shows until hydration measures the
 * element: keep it narrow (PRE_HYDRATION_WIDTH), because a drawing wider than its box
 * widened the page sideways until then (the UI kit at 1024 px, seen in CI under load).
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [width, setWidth] = useState(initial);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || initial);
    const ro = new ResizeObserver(([entry]) => entry && setWidth(Math.round(entry.contentRect.width) || initial));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, initial]);
  return width;
}

/** Narrower than any content column the dashboard lays out (the sidebar leaves ≥ 700 px at 1024). */
export const PRE_HYDRATION_WIDTH = 320;
