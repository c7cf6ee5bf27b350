"use client";
import { DatabaseZap } from "lucide-react";
import { useEffect, useState } from "react";
import { databaseBannerState, healthPollMs, type DatabaseBannerState, type HealthAnswer } from "./database-status";

/**
 * A banner across every dashboard page while the database is down or restarting (docs/decisions/0055):
 * it reads the open GET /api/health, every 5 s, every 2 s while something is wrong.
 */
export function DatabaseBanner() {
  const [state, setState] = useState<DatabaseBannerState>({ show: false });
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const look = async () => {
      const answer = await fetch("/api/health", { cache: "no-store", signal: AbortSignal.timeout(4_000) })
        .then((res) => res.json() as Promise<HealthAnswer>)
        .catch(() => null);
      if (cancelled) return;
      const next = databaseBannerState(answer);
      setState(next);
      timer = setTimeout(() => void look(), healthPollMs(next));
    };
    void look();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, []);
  if (!state.show) return null;
  return (
    <div
      role="alert"
      data-testid="database-banner"
      className="flex items-start gap-3 border-b border-red-300 bg-red-50 px-6 py-3 text-sm text-red-900"
    >
      <DatabaseZap aria-hidden className="mt-0.5 h-5 w-5 shrink-0 text-red-700" />
      <div>
        <p className="font-semibold">{state.title}</p>
        <p className="text-red-800">{state.detail}</p>
      </div>
    </div>
  );
}
