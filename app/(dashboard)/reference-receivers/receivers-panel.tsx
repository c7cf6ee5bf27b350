"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { CapabilityTree } from "./capability-tree";
import { FaultControls } from "./fault-controls";
import { DedupeStore } from "./dedupe-store";
import { RecordedEvents } from "./recorded-events";
import { ReplicaCompare } from "./replica-compare";

export function ReceiversPanel({ focusIncidentId }: { focusIncidentId?: string }) {
  const trpc = useTRPC();
  // Once a second: fault countdowns follow the workbench clock.
  const receivers = useQuery({ ...trpc.receivers.list.queryOptions(), refetchInterval: 1_000 });
  if (receivers.error)
    return (
      <p role="alert" className="text-sm text-red-700">
        {receivers.error.message}
      </p>
    );
  if (!receivers.data) return <p className="text-sm text-slate-500">Loading receivers…</p>;
  return (
    <div className="flex flex-col gap-8">
      {receivers.data.map((r) => (
        <section
          key={r.key}
          aria-labelledby={`receiver-${r.key}`}
          className="rounded-lg border border-slate-200 bg-white p-5"
          data-testid={`receiver-${r.key}`}
        >
          <header className="mb-4 flex flex-wrap items-baseline gap-x-4 gap-y-1">
            <h2 id={`receiver-${r.key}`} className="text-lg font-semibold">
              {r.key}
            </h2>
            <span className="font-mono text-sm text-slate-600">{r.path}</span>
            <span className="text-sm text-slate-600">{r.agency.displayName}</span>
            <span className="text-sm text-slate-600">
              recorded: {r.recorded.accepted ?? 0} accepted · {(r.recorded["rejected-token"] ?? 0) - r.legacyProbes}{" "}
              refused tokens · {r.recorded.fault ?? 0} fault answers
              {r.legacyProbes > 0 && (
                <span title="Discovery tries GET /about with the legacy PsapConnector credential first, as the spec orders; a 3.x receiver refuses it and discovery retries with Publisher.">
                  {" "}
                  · {r.legacyProbes} expected legacy-credential probes
                </span>
              )}
            </span>
          </header>
          <div className="grid gap-6 lg:grid-cols-3">
            <CapabilityTree receiver={r} />
            <div className="flex flex-col gap-4">
              <h3 className="text-sm font-semibold">GET /about preview</h3>
              <pre
                tabIndex={0}
                aria-label={`${r.key}: GET /about response`}
                className="max-h-80 overflow-auto [contain:inline-size] rounded bg-slate-900 p-3 text-xs text-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-orange-500"
                data-testid={`about-${r.key}`}
              >
                {JSON.stringify(r.declaration, null, 2)}
              </pre>
              {r.declarationProblem && (
                <p role="alert" className="text-sm text-amber-800">
                  {r.declarationProblem}
                </p>
              )}
            </div>
            <FaultControls receiver={r} />
          </div>
          <RecordedEvents receiverKey={r.key} />
          <DedupeStore receiverKey={r.key} />
          <ReplicaCompare receiverKey={r.key} focusIncidentId={focusIncidentId} />
        </section>
      ))}
    </div>
  );
}
