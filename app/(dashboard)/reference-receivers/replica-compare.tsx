"use client";
// What this receiver's replica of an incident holds against the platform's snapshot: after an
// outage or with a capability off, the replica lags or differs, and the diff says where.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { JsonDiffView } from "@/app/_components/json/json-diff-view";
import { Badge } from "@/app/_components/ui/badge";
import { Select } from "@/app/_components/ui/form";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { useTRPC } from "@/app/_trpc/react";

export function ReplicaCompare({ receiverKey, focusIncidentId }: { receiverKey: string; focusIncidentId?: string }) {
  const trpc = useTRPC();
  const replicas = useQuery({
    ...trpc.receivers.replicas.queryOptions({ key: receiverKey, limit: 30 }),
    refetchInterval: 2_000,
  });
  const [incidentId, setIncidentId] = useState(focusIncidentId ?? "");
  useEffect(() => {
    const list = replicas.data ?? [];
    if (list.length && !list.some((r) => r.incidentId === incidentId))
      setIncidentId(list.find((r) => r.incidentId === focusIncidentId)?.incidentId ?? list[0]!.incidentId);
  }, [replicas.data, incidentId, focusIncidentId]);
  const replica = replicas.data?.find((r) => r.incidentId === incidentId);
  const platform = useQuery({
    ...trpc.inbound.incident.queryOptions({ incidentId }),
    enabled: Boolean(replica),
    refetchInterval: 2_000,
  });
  const id = `${receiverKey}-replica`;

  return (
    <div className="mt-5" data-testid={`replica-${receiverKey}`}>
      <div className="mb-2 flex flex-wrap items-center gap-3">
        <h3 className="text-sm font-semibold">Replica vs platform snapshot</h3>
        {replicas.data && replicas.data.length > 0 && (
          <>
            <label htmlFor={id} className="text-xs text-slate-600">
              Incident
            </label>
            <Select
              id={id}
              value={incidentId}
              onChange={(e) => setIncidentId(e.target.value)}
              className="w-auto font-mono text-xs"
            >
              {replicas.data.map((r) => (
                <option key={r.incidentId} value={r.incidentId}>
                  {r.incidentId}
                  {r.closedAtUtc ? " (closed)" : ""}
                </option>
              ))}
            </Select>
          </>
        )}
        {replica && <PurposeBadge purpose={replica.purpose as "Real" | "Test" | "Demo"} />}
        {replica &&
          platform.data &&
          (JSON.stringify(replica.snapshot) === JSON.stringify(platform.data.snapshot) ? (
            <Badge tone="success">in sync</Badge>
          ) : (
            <Badge tone="warning">differs</Badge>
          ))}
      </div>
      {replicas.data?.length === 0 && (
        <p className="text-sm text-slate-600">No replica yet: nothing delivered to this receiver.</p>
      )}
      {replica && platform.data && (
        <>
          <p className="mb-1 text-xs text-slate-600">Lines marked − are the platform&apos;s, + the replica&apos;s.</p>
          <JsonDiffView previous={platform.data.snapshot} value={replica.snapshot} maxHeight="20rem" />
        </>
      )}
      {replica && platform.data === null && (
        <p className="text-sm text-slate-600">The platform no longer knows this incident (seed reset).</p>
      )}
    </div>
  );
}
