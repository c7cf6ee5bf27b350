import { SearchX } from "lucide-react";
import Link from "next/link";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { RETRY_AFTER_FAILURE_MS } from "../../../_components/describe-load-error";

const back = (
  <Button asChild variant="secondary">
    <Link href="/portal/incidents">All incidents</Link>
  </Button>
);

/** An id no incident of this dispatcher's agencies has (or no id at all): said plainly, with the way back. */
export function IncidentNotFound({ incidentId }: { incidentId: string }) {
  return (
    <div className="mx-auto max-w-xl" data-testid="incident-not-found">
      <h1 className="sr-only">Incident not found</h1>
      <EmptyState icon={SearchX} title="Incident not found" action={back}>
        No incident <code className="break-all">{incidentId}</code> is visible to your agency. The link may be mistyped,
        or the incident belongs to an agency you do not work with.
      </EmptyState>
    </div>
  );
}

/** A malformed id cannot name an incident either: both read as "not found", not as an input error. */
export const isNotFound = (code: string | undefined) => code === "NOT_FOUND" || code === "BAD_REQUEST";

export function IncidentLoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="mx-auto max-w-xl space-y-3" data-testid="incident-load-failed">
      <h1 className="text-xl font-semibold">The incident could not be loaded</h1>
      <Alert tone="danger">
        {message} Trying again every {RETRY_AFTER_FAILURE_MS / 1000} s.
      </Alert>
      <div className="flex gap-2">
        <Button onClick={onRetry}>Try again</Button>
        {back}
      </div>
    </div>
  );
}

export function IncidentLoading() {
  return (
    <div className="space-y-4">
      <h1 className="sr-only">Loading the incident</h1>
      <SkeletonRows rows={6} label="Loading the incident…" />
    </div>
  );
}

/** Updates stopped while the page shows the incident as it last loaded: said above it, not by hiding it. */
export function UpdatesStopped({ message }: { message: string }) {
  return (
    <Alert tone="warning" title="Updates stopped" className="mb-4">
      {message} The incident below is as it last loaded; trying again every {RETRY_AFTER_FAILURE_MS / 1000} s.
    </Alert>
  );
}
