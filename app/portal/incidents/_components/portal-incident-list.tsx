"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { IncidentFilters, type IncidentFilterValue } from "@/app/_components/incident/incident-filters";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";
import { describeLoadError, RETRY_AFTER_FAILURE_MS } from "../../_components/describe-load-error";
import { usePortalNow } from "../../_components/use-portal-now";
import { PortalIncidentTable } from "./portal-incident-table";

/** Live: polled every second, so new incidents and changes appear within a second; most recent activity first. */
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
    refetchInterval: (q) => (q.state.error ? RETRY_AFTER_FAILURE_MS : 1_000),
    // The interval asks again; retrying at once would keep the skeleton up through an outage.
    retry: false,
    placeholderData: (previous) => previous,
  });
  const { nowMs } = usePortalNow();
  const filtered = filter.state !== "open" || filter.purpose !== "" || filter.agencyId !== ownAgencyId;
  return (
    <div className="mt-6 space-y-4">
      <IncidentFilters value={filter} onChange={setFilter} agencies={agencies.data ?? []} />
      {list.error && (
        <Alert tone="danger" title="The incident list could not be loaded">
          {describeLoadError(list.error)}
          {list.data ? " The list below is as it last loaded;" : ""} trying again every {RETRY_AFTER_FAILURE_MS / 1000}{" "}
          s.
        </Alert>
      )}
      {list.isPending ? (
        <SkeletonRows rows={4} label="Loading incidents…" />
      ) : list.data && list.data.length > 0 ? (
        <PortalIncidentTable rows={list.data} nowMs={nowMs} />
      ) : list.data ? (
        <EmptyState
          title={filtered ? "No incident matches these filters." : "No open incidents."}
          action={
            filtered ? (
              <Button
                variant="secondary"
                onClick={() => setFilter({ state: "open", purpose: "", agencyId: ownAgencyId })}
              >
                Show all open incidents
              </Button>
            ) : undefined
          }
        >
          New incidents appear here within a second.
        </EmptyState>
      ) : null}
    </div>
  );
}
