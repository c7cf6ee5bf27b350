"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { SectionCard } from "@/app/_components/ui/card";
import { Select } from "@/app/_components/ui/form";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { useTRPC } from "@/app/_trpc/react";
import { ActionForms } from "./action-forms";
import { RaiseIncidentForm } from "./raise-incident-form";
import { ScenarioRunner } from "./scenario-runner";

/** The selected incident lives in the URL (?incident=…), so a link from an incident page lands ready to act. */
export function SimulatorWorkspace() {
  const trpc = useTRPC();
  const router = useRouter();
  const incidentId = useSearchParams().get("incident") ?? "";
  const select = (id: string) => router.replace(id ? `/simulator?incident=${id}` : "/simulator", { scroll: false });
  const open = useQuery({ ...trpc.incidents.list.queryOptions({ state: "open", take: 100 }), refetchInterval: 2_000 });
  const selected = open.data?.find((r) => r.id === incidentId);
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <div className="space-y-6">
        <RaiseIncidentForm onRaised={select} />
        <SectionCard id="sim-incident" title="Incident to act on">
          <label htmlFor="sim-incident-select" className="text-xs font-medium text-slate-700">
            Open incident
          </label>
          <Select
            id="sim-incident-select"
            data-testid="sim-incident-select"
            value={incidentId}
            onChange={(e) => select(e.target.value)}
            className="mt-1 w-full"
          >
            <option value="">Choose an open incident…</option>
            {incidentId && !selected && <option value={incidentId}>{incidentId}</option>}
            {(open.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.purpose} · {r.label ?? r.id.slice(0, 8)} · {r.agencies[0]?.displayName} ·{" "}
                {r.createdAtUtc.slice(11, 19)}Z
              </option>
            ))}
          </Select>
          {selected && (
            <p className="mt-2 flex flex-wrap items-center gap-2 text-sm">
              <PurposeBadge purpose={selected.purpose} />
              <Link href={`/incidents/${selected.id}`} className="underline-offset-2 hover:underline">
                Incident page
              </Link>
              <a href={`/portal/incidents/${selected.id}`} className="underline-offset-2 hover:underline">
                Portal
              </a>
              <Link href={`/deliveries?incident=${selected.id}`} className="underline-offset-2 hover:underline">
                Deliveries
              </Link>
            </p>
          )}
        </SectionCard>
        {incidentId && <ActionForms incidentId={incidentId} />}
      </div>
      <ScenarioRunner onOpenIncident={select} />
    </div>
  );
}
