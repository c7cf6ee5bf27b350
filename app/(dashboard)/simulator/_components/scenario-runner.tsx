"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { SectionCard } from "@/app/_components/ui/card";
import { useTRPC } from "@/app/_trpc/react";
import { ScenarioRunView } from "./scenario-run-view";
import { calls } from "../../_components/may-call";

/** Scripted scenarios; the latest run of each is followed live (progress per step). */
export function ScenarioRunner({ onOpenIncident }: { onOpenIncident: (id: string) => void }) {
  const trpc = useTRPC();
  const scenarios = useQuery(trpc.simulator.scenarios.queryOptions());
  const [runIds, setRunIds] = useState<Record<string, string>>({});
  const start = useMutation(
    trpc.simulator.runScenario.mutationOptions({
      onSuccess: (run) => setRunIds((ids) => ({ ...ids, [run.scenario]: run.id })),
    }),
  );
  return (
    <SectionCard id="sim-scenarios" title="Scenarios">
      <ul className="space-y-4">
        {(scenarios.data ?? []).map((s) => (
          <li key={s.key} className="rounded-md border border-slate-200 p-3" data-testid={`scenario-${s.key}`}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div>
                <h3 className="text-sm font-semibold">{s.title}</h3>
                <p className="mt-0.5 text-xs text-slate-600">{s.description}</p>
              </div>
              <Button
                {...calls("simulator.runScenario")}
                size="sm"
                disabled={start.isPending}
                onClick={() => start.mutate({ scenario: s.key })}
                aria-label={`Run: ${s.title}`}
              >
                Run
              </Button>
            </div>
            {runIds[s.key] ? (
              <ScenarioRunView runId={runIds[s.key]!} onOpenIncident={onOpenIncident} />
            ) : (
              <p className="mt-2 text-xs text-slate-500">
                <Badge tone="neutral">{s.steps.length} steps</Badge> {s.steps.join(" → ")}
              </p>
            )}
          </li>
        ))}
      </ul>
      {start.error && (
        <Alert tone="danger" className="mt-3">
          {start.error.message}
        </Alert>
      )}
    </SectionCard>
  );
}
