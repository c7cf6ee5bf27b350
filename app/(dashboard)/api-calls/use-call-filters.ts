"use client";
// The filters live in the URL (call-filters.ts): a change replaces the address without a reload.
import { useCallback, useState } from "react";
import { EMPTY_FILTERS, type CallFilters } from "./call-filters";

export function useCallFilters(initial: CallFilters) {
  const [filters, setFilters] = useState(initial);
  const update = useCallback((patch: Partial<CallFilters>) => {
    setFilters((prev) => {
      const next = { ...prev, ...patch };
      const params = new URLSearchParams(
        Object.entries(next).filter(([k, v]) => v && v !== EMPTY_FILTERS[k as keyof CallFilters]),
      );
      window.history.replaceState(null, "", `${window.location.pathname}${params.size ? `?${params}` : ""}`);
      return next;
    });
  }, []);
  return [filters, update] as const;
}
