"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { IncidentFilters, type IncidentFilterValue } from "@/app/_components/incident/incident-filters";
import { IncidentTable } from "@/app/_components/incident/incident-table";
import { Alert } from "@/app/_components/ui/alert";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";

/** Live: polled every second (issue 7: new incidents and changes appear within a second). */
export function PortalIncidentList({ ownAgencyId }: { ownAgencyId: string }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<IncidentFilterValue>({ state: "open", purpose: "", agencyId: ownAgencyId });
  const agencies = useQuery(trpc.portal.agencies.queryOptions());
  const list = useQuery({
    ...trpc.portal.incidents.queryOptions({
      state: filter.state,
      purpose: filter.purpose || undefined,
      agencyId: filter.agencyId,
    }),
    refetchInterval: 1_000,
    placeholderData: (previous) => previous,
  });
  return (
    <div className="mt-6 space-y-4">
      <IncidentFilters value={filter} onChange={setFilter} agencies={agencies.data ?? []} />
      {list.error && <Alert tone="danger">{list.error.message}</Alert>}
      {list.isPending ? (
        <SkeletonRows rows={4} />
      ) : list.data && list.data.length > 0 ? (
        <IncidentTable rows={list.data} hrefOf={(id) => `/portal/incidents/${id}`} caption="Incidents" />
      ) : (
        <EmptyState title="No incidents match.">New incidents appear here within a second.</EmptyState>
      )}
    </div>
  );
}
