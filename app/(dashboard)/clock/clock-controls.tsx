"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { formatDuration } from "../_components/format";

const JUMPS = [
  { label: "+1 min", ms: 60_000 },
  { label: "+10 min", ms: 600_000 },
  { label: "+61 min", ms: 61 * 60_000 },
];

export function ClockControls() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 1_000 });
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.clock.show.queryKey() });
  const advance = useMutation(trpc.clock.advance.mutationOptions({ onSuccess }));
  const reset = useMutation(trpc.clock.reset.mutationOptions({ onSuccess }));
  const busy = advance.isPending || reset.isPending;

  return (
    <div className="max-w-xl rounded-lg border border-slate-200 bg-white p-6">
      <dl className="grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Workbench time</dt>
          <dd className="font-mono text-lg tabular-nums" data-testid="clock-now">{clock.data?.now ?? "…"}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Ahead of real time by</dt>
          <dd className="font-mono text-lg" data-testid="clock-offset-value">{clock.data ? (clock.data.offsetMs ? formatDuration(clock.data.offsetMs) : "0 (real time)") : "…"}</dd>
        </div>
      </dl>
      <div className="mt-6 flex flex-wrap gap-2">
        {JUMPS.map((j) => (
          <button key={j.label} type="button" disabled={busy} onClick={() => advance.mutate({ byMs: j.ms })}
            className="rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50">
            {j.label}
          </button>
        ))}
        <button type="button" disabled={busy} onClick={() => reset.mutate()}
          className="rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500 disabled:opacity-50">
          Reset to real time
        </button>
      </div>
      {(advance.error ?? reset.error) && <p role="alert" className="mt-3 text-sm text-red-700">{(advance.error ?? reset.error)?.message}</p>}
    </div>
  );
}
