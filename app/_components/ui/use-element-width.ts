"use client";
import { type RefObject, useEffect, useState } from "react";

/** Width of an element, followed with a ResizeObserver (SVG drawings need pixel widths). */
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
