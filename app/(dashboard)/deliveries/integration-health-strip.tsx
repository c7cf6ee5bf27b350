"use client";
// Per-integration health above the inspector, as Svix and Hookdeck show it beside an endpoint: the
// last hour's success rate, since when it has been failing, its last error. A click filters the
// list to that integration (again: back to all).
import { useQuery } from "@tanstack/react-query";
import { cn, focusRing } from "@/app/_components/ui/cn";
import { RelativeTime } from "@/app/_components/ui/relative-time";
import { useTRPC } from "@/app/_trpc/react";

export function IntegrationHealthStrip({
  nowMs,
  current,
  onPick,
}: {
  nowMs: number | null;
  current: string;
  onPick: (integration: string) => void;
}) {
  const trpc = useTRPC();
  const health = useQuery({ ...trpc.deliveries.health.queryOptions(), refetchInterval: 5_000 });
  if (health.isError)
    return (
      <p role="alert" className="text-sm text-red-700">
        Integration health unavailable: {health.error.message}
      </p>
    );
  if (!health.data) return <p className="h-[4.25rem] text-sm text-slate-500">Loading integration health…</p>;
  if (!health.data.length) return <p className="text-sm text-slate-600">No integrations yet: add one under Admin.</p>;
  return (
    <ul className="grid grid-cols-[repeat(auto-fill,minmax(17rem,1fr))] gap-2" aria-label="Receiver health (last hour)">
      {health.data.map((h) => {
        const failing = h.failingSince !== null;
        return (
          <li key={h.integration} className="min-w-0">
            <button
              type="button"
              aria-pressed={current === h.integration}
              onClick={() => onPick(current === h.integration ? "" : h.integration)}
              className={cn(
                "block w-full min-w-0 rounded-md border px-3 py-1.5 text-left text-xs",
                failing ? "border-red-200 bg-red-50" : "border-slate-200 bg-white",
                "aria-pressed:ring-2 aria-pressed:ring-orange-400",
                focusRing,
              )}
              data-testid={`health-${h.integration}`}
            >
              <span className="flex items-baseline justify-between gap-2">
                <span className="min-w-0 truncate font-semibold text-slate-900">{h.integration}</span>
                <span className={cn("shrink-0 font-semibold", failing ? "text-red-800" : "text-emerald-800")}>
                  {failing ? "failing" : "healthy"}
                </span>
              </span>
              <span className="block truncate text-slate-600">
                {h.successRate === null ? "no attempts in 1 h" : `${h.successRate} % ok of ${h.attempts} in 1 h`}
                {" · "}
                {failing ? (
                  <>
                    failing since <RelativeTime iso={h.failingSince!} nowMs={nowMs} />
                    {h.lastError && ` · last ${h.lastError.outcome}`}
                  </>
                ) : h.lastError ? (
                  <>
                    last error {h.lastError.outcome} <RelativeTime iso={h.lastError.at} nowMs={nowMs} />
                  </>
                ) : (
                  "no errors"
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
