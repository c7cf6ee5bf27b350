"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { IncidentFilters, type IncidentFilterValue } from "@/app/_components/incident/incident-filters";
import { IncidentTable } from "@/app/_components/incident/incident-table";
import { Alert } from "@/app/_components/ui/alert";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";

export function DashboardIncidentList() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<IncidentFilterValue>({ state: "all", purpose: "", agencyId: "" });
  const directory = useQuery(trpc.directory.list.queryOptions());
  const list = useQuery({
    ...trpc.incidents.list.queryOptions({
      state: filter.state,
      purpose: filter.purpose || undefined,
      agencyId: filter.agencyId || undefined,
      take: 200,
    }),
    refetchInterval: 1_000,
    placeholderData: (previous) => previous,
  });
  return (
    <div className="space-y-4">
      <IncidentFilters
        value={filter}
        onChange={setFilter}
        agencies={directory.data?.agencies ?? []}
        anyAgencyLabel="Any agency"
      />
      {list.error && <Alert tone="danger">{list.error.message}</Alert>}
      {list.isPending ? (
        <SkeletonRows rows={4} />
      ) : list.data && list.data.length > 0 ? (
        <IncidentTable rows={list.data} hrefOf={(id) => `/incidents/${id}`} caption="Incidents" />
      ) : (
        <EmptyState title="No incidents match.">Raise one in the Simulator or through the partner console.</EmptyState>
      )}
    </div>
  );
}
