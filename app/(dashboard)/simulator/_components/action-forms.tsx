"use client";
// The caller-side actions as small forms (caller-action-rows.tsx). Each submits one simulator.act;
// the result line says which change record it produced (or that none was).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Alert } from "@/app/_components/ui/alert";
import { SectionCard } from "@/app/_components/ui/card";
import { useTRPC } from "@/app/_trpc/react";
import type { AppRouter } from "@/server/api/root";
import type { TSimulatorAction } from "@/server/simulator/simulator.schema";
import { CallerDetailActions, ChatAndVideoActions, DeviceActions, LocationActions } from "./caller-action-rows";

type ActResult = inferRouterOutputs<AppRouter>["simulator"]["act"];

export function ActionForms({ incidentId }: { incidentId: string }) {
  const { act, run } = useSimulatorAct(incidentId);
  const busy = act.isPending;
  return (
    <SectionCard id="sim-actions" title="Caller actions">
      <div className="space-y-3">
        <LocationActions busy={busy} run={run} />
        <DeviceActions busy={busy} run={run} />
        <CallerDetailActions busy={busy} run={run} />
        <ChatAndVideoActions busy={busy} run={run} />
      </div>
      <ActionResult error={act.error} result={act.data} />
    </SectionCard>
  );
}

/** One simulator.act on the incident; the incident list is reloaded after it. */
function useSimulatorAct(incidentId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const act = useMutation(
    trpc.simulator.act.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.incidents.list.queryKey() }),
    }),
  );
  const run = (action: TSimulatorAction) => act.mutate({ incidentId, action });
  return { act, run };
}

/** The last action's outcome, announced: its error, or the change records it made (if any). */
function ActionResult({ error, result }: { error: { message: string } | null; result: ActResult | undefined }) {
  return (
    <div aria-live="polite" className="mt-3 min-h-6 text-sm" data-testid="action-result">
      {error ? (
        <Alert tone="danger">{error.message}</Alert>
      ) : result ? (
        <span>
          {result.action}:{" "}
          {result.changes.length ? (
            <>
              recorded <code>{result.changes.join(", ")}</code>
              {result.version ? ` (version ${result.version})` : ""}
            </>
          ) : (
            "no change record (nothing a receiver is sent)"
          )}
        </span>
      ) : null}
    </div>
  );
}
