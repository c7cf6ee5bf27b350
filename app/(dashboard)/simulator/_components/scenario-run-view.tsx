"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { cn } from "@/app/_components/ui/cn";
import { useTRPC } from "@/app/_trpc/react";

const BAR: Record<string, string> = {
  pending: "w-0",
  running: "w-1/2 animate-pulse bg-sky-600",
  done: "w-full bg-emerald-600",
  failed: "w-full bg-red-600",
};

/** One run: a progress bar per step, polled while it runs. */
export function ScenarioRunView({ runId, onOpenIncident }: { runId: string; onOpenIncident: (id: string) => void }) {
  const trpc = useTRPC();
  const run = useQuery({
    ...trpc.simulator.scenarioRun.queryOptions({ runId }),
    refetchInterval: (q) => (q.state.data?.state === "running" || !q.state.data ? 300 : false),
  });
  if (!run.data) return null;
  const r = run.data;
  const done = r.steps.filter((s) => s.state === "done").length;
  return (
    <div className="mt-3" data-testid="scenario-run" data-state={r.state}>
      <div className="mb-2 flex items-center gap-2 text-xs">
        <Badge tone={r.state === "done" ? "success" : r.state === "failed" ? "danger" : "info"}>{r.state}</Badge>
        <span>
          {done} of {r.steps.length} steps
        </span>
      </div>
      <ol className="space-y-1.5">
        {r.steps.map((s, i) => (
          <li key={i} className="text-xs" data-step-state={s.state}>
            <div className="flex justify-between gap-2">
              <span className="font-medium">
                {i + 1}. {s.title}
              </span>
              <span className="text-slate-600">{s.state}</span>
            </div>
            <div
              role="progressbar"
              aria-label={s.title}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={s.state === "done" || s.state === "failed" ? 100 : s.state === "running" ? 50 : 0}
              className="mt-0.5 h-1.5 overflow-hidden rounded bg-slate-100"
            >
              <div className={cn("h-full rounded transition-all duration-300", BAR[s.state])} />
            </div>
            {s.detail && (
              <p className={cn("mt-0.5", s.state === "failed" ? "text-red-800" : "text-slate-600")}>{s.detail}</p>
            )}
          </li>
        ))}
      </ol>
      {r.error && (
        <Alert tone="danger" className="mt-2">
          {r.error}
        </Alert>
      )}
      {r.incidentIds.map((id) => (
        <div key={id} className="mt-2 flex flex-wrap gap-3 text-xs">
          <Link href={`/incidents/${id}`} className="underline-offset-2 hover:underline">
            Incident page
          </Link>
          <a href={`/portal/incidents/${id}`} className="underline-offset-2 hover:underline">
            Portal
          </a>
          <Button size="sm" variant="link" onClick={() => onOpenIncident(id)}>
            Act on it
          </Button>
        </div>
      ))}
    </div>
  );
}
