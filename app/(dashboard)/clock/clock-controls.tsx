"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { Card } from "@/app/_components/ui/card";
import { useTRPC } from "@/app/_trpc/react";
import { formatDuration } from "../_components/format";
import { RoleGate } from "../_components/role-gate";
import { calls } from "../_components/may-call";

const JUMPS = [
  { label: "+1 min", ms: 60_000 },
  { label: "+10 min", ms: 600_000 },
  { label: "+61 min", ms: 61 * 60_000, hint: "past the 1 h delivery window" },
];

export function ClockControls() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 1_000 });
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: trpc.clock.show.queryKey() });
  const advance = useMutation(trpc.clock.advance.mutationOptions({ onSuccess }));
  const reset = useMutation(trpc.clock.reset.mutationOptions({ onSuccess }));
  const busy = advance.isPending || reset.isPending;
  const ahead = (clock.data?.offsetMs ?? 0) !== 0;

  return (
    <Card className="max-w-2xl p-6">
      <dl className="grid grid-cols-2 gap-4 text-sm">
        <div>
          <dt className="text-xs text-slate-500">Workbench time</dt>
          <dd className="font-mono text-lg tabular-nums" data-testid="clock-now">
            {clock.data?.now ?? "…"}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Ahead of real time by</dt>
          <dd className={`font-mono text-lg ${ahead ? "text-amber-800" : ""}`} data-testid="clock-offset-value">
            {clock.data ? (clock.data.offsetMs ? formatDuration(clock.data.offsetMs) : "0 (real time)") : "…"}
          </dd>
        </div>
      </dl>
      <div className="mt-6">
        <RoleGate call="clock.advance" what="Moving the workbench clock">
          <div className="flex flex-wrap gap-2">
            {JUMPS.map((j) => (
              <Button
                {...calls("clock.advance")}
                key={j.label}
                disabled={busy}
                onClick={() => advance.mutate({ byMs: j.ms })}
                title={j.hint}
              >
                {j.label}
              </Button>
            ))}
            <Button
              {...calls("clock.reset")}
              variant="secondary"
              disabled={busy || !ahead}
              onClick={() => reset.mutate()}
            >
              Reset to real time
            </Button>
          </div>
        </RoleGate>
      </div>
      {(advance.error ?? reset.error) && (
        <Alert tone="danger" className="mt-3">
          {(advance.error ?? reset.error)?.message}
        </Alert>
      )}
    </Card>
  );
}
