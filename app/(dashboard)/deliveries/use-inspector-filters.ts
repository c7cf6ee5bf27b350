"use client";
// The inspector's filters live in the URL (?integration=&incident=&state=&q=&selected=), so a
// delivery can be linked from the receivers page, the partner console or a bug report.
import { useCallback, useState } from "react";
import type { InspectorFilters } from "./inspector-filters";

export function useInspectorFilters(initial: InspectorFilters) {
  const [filters, setFilters] = useState(initial);
  const update = useCallback((patch: Partial<InspectorFilters>) => {
    setFilters((prev) => {
      const next = { ...prev, ...patch };
      const params = new URLSearchParams(Object.entries(next).filter(([, v]) => v));
      window.history.replaceState(null, "", `${window.location.pathname}${params.size ? `?${params}` : ""}`);
      return next;
    });
  }, []);
  return [filters, update] as const;
}
