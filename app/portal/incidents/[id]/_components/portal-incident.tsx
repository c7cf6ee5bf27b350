"use client";
import Link from "next/link";
import { ChangeTimeline } from "@/app/_components/incident/change-timeline";
import { incidentTitle, reportedProblemsOf } from "@/app/_components/incident/describe-incident";
import { IncidentSnapshotView } from "@/app/_components/incident/incident-snapshot-view";
import { CallerTrackMap } from "@/app/_components/map/caller-track-map";
import { Badge } from "@/app/_components/ui/badge";
import { SectionCard } from "@/app/_components/ui/card";
import { cn } from "@/app/_components/ui/cn";
import { CopyButton } from "@/app/_components/ui/copy-button";
import { PurposeBadge } from "@/app/_components/ui/purpose-badge";
import { usePortalNow } from "../../../_components/use-portal-now";
import { CallerContact } from "./caller-contact";
import { IncidentFacts } from "./incident-facts";
import { useLiveIncident } from "./use-live-incident";

const TILE_URL = process.env.NEXT_PUBLIC_MAP_TILE_URL || undefined;

/**
 * One incident for a dispatcher, live (polled every second). The first viewport answers what,
 * where, who and how fresh, with the map and the chat beside them; the full record follows.
 */
export function PortalIncident({ incidentId }: { incidentId: string }) {
  const { data, gate, stale } = useLiveIncident(incidentId);
  const { nowMs } = usePortalNow();
  if (!data) return gate;
  const { snapshot, changes, closedAtUtc } = data;
  const title = incidentTitle({
    label: snapshot.label,
    problems: reportedProblemsOf(snapshot.caller.reportedProblems),
    callerName: snapshot.caller.fullName,
    callerPhone: snapshot.caller.phoneNumber,
  });
  const test = snapshot.purpose === "Test";
  return (
    <div className="space-y-4">
      {stale}
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/portal/incidents" className="text-slate-700 underline-offset-2 hover:underline">
          ← All incidents
        </Link>
      </nav>
      <div className="grid items-start gap-4 lg:grid-cols-2 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.15fr)_minmax(0,1fr)]">
        <section
          aria-labelledby="incident-title"
          data-testid="incident-header"
          className={cn(
            "min-w-0 rounded-lg border bg-white p-4 shadow-xs",
            test ? "border-2 border-dashed border-violet-400 bg-violet-50/60" : "border-slate-200",
          )}
        >
          <div className="flex flex-wrap items-center gap-2">
            <PurposeBadge purpose={snapshot.purpose} />
            {closedAtUtc ? <Badge tone="neutral">Closed</Badge> : <Badge tone="warning">Open</Badge>}
            {snapshot.callSign && (
              <span className="rounded bg-slate-900 px-2 py-0.5 font-mono text-xs font-semibold text-white">
                {snapshot.callSign}
              </span>
            )}
          </div>
          <h1 id="incident-title" className="mt-2 text-xl font-semibold leading-tight tracking-tight">
            {title}
          </h1>
          {snapshot.summary && <p className="mt-1 text-sm text-slate-700">{snapshot.summary}</p>}
          <p className="mt-1 flex items-center gap-1 text-xs text-slate-600">
            Incident{" "}
            <span className="font-mono" title={snapshot.id}>
              {snapshot.id.slice(0, 8)}
            </span>
            <CopyButton value={snapshot.id} label="Copy incident id" />
          </p>
          <div className="mt-3 border-t border-slate-100 pt-3">
            <IncidentFacts
              snapshot={snapshot}
              lastUpdateAtUtc={changes.at(-1)?.producedAtUtc ?? snapshot.createdAtUtc}
              updateCount={changes.length}
              nowMs={nowMs}
            />
          </div>
        </section>
        <SectionCard id="map-h" title="Caller location" className="min-w-0">
          <CallerTrackMap tracks={snapshot.caller.tracks} tileUrl={TILE_URL} height={300} compact />
        </SectionCard>
        <div className="min-w-0 lg:col-span-2 xl:col-span-1">
          <CallerContact incidentId={incidentId} caller={snapshot.caller} closed={Boolean(closedAtUtc)} nowMs={nowMs} />
        </div>
      </div>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <IncidentSnapshotView snapshot={snapshot} tileUrl={TILE_URL} showHeader={false} showMap={false} />
        <SectionCard id="changes" title={`Updates (${changes.length})`}>
          <ChangeTimeline changes={changes} snapshot={snapshot} nowMs={nowMs} />
        </SectionCard>
      </div>
    </div>
  );
}
