"use client";
// One incident for the portal's views, live (polled every second; every 5 s after a failure; not
// again once it is known not to exist), with what a view shows instead of it: not found, the
// first load failing or pending (`gate`), or a notice that updates stopped over what was shown.
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/_trpc/react";
import { describeLoadError, RETRY_AFTER_FAILURE_MS } from "../../../_components/describe-load-error";
import { IncidentLoadFailed, IncidentLoading, IncidentNotFound, isNotFound, UpdatesStopped } from "./incident-states";

export function useLiveIncident(incidentId: string) {
  const trpc = useTRPC();
  const incident = useQuery({
    ...trpc.portal.incident.queryOptions({ incidentId }),
    refetchInterval: (q) =>
      isNotFound(q.state.error?.data?.code) ? false : q.state.error ? RETRY_AFTER_FAILURE_MS : 1_000,
    retry: false,
  });
  let gate: ReactNode = null;
  if (isNotFound(incident.error?.data?.code)) gate = <IncidentNotFound incidentId={incidentId} />;
  else if (!incident.data)
    gate = incident.error ? (
      <IncidentLoadFailed message={describeLoadError(incident.error)} onRetry={() => void incident.refetch()} />
    ) : (
      <IncidentLoading />
    );
  const stale = incident.error ? <UpdatesStopped message={describeLoadError(incident.error)} /> : null;
  return { data: gate ? undefined : incident.data, gate, stale };
}
