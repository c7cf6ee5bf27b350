"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ChangeTimeline } from "@/app/_components/incident/change-timeline";
import { IncidentSnapshotView } from "@/app/_components/incident/incident-snapshot-view";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { SectionCard } from "@/app/_components/ui/card";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useTRPC } from "@/app/_trpc/react";

const TILE_URL = process.env.NEXT_PUBLIC_MAP_TILE_URL || undefined;

/** One incident for a dispatcher, live (polled every second). */
export function PortalIncident({ incidentId }: { incidentId: string }) {
  const trpc = useTRPC();
  const incident = useQuery({
    ...trpc.portal.incident.queryOptions({ incidentId }),
    refetchInterval: 1_000,
    retry: false,
  });
  if (incident.error) return <Alert tone="danger">{incident.error.message}</Alert>;
  if (!incident.data) return <SkeletonRows rows={6} label="Loading the incident…" />;
  const { snapshot, changes, closedAtUtc, version } = incident.data;
  const base = `/portal/incidents/${incidentId}`;
  return (
    <div className="space-y-6">
      <nav aria-label="Incident pages" className="flex flex-wrap items-center gap-3 text-sm">
        <Link href="/portal/incidents" className="text-slate-700 underline-offset-2 hover:underline">
          ← All incidents
        </Link>
        <span aria-hidden className="text-slate-300">
          |
        </span>
        <Link href={`${base}/chat`} className="font-medium text-slate-900 underline-offset-2 hover:underline">
          Chat {snapshot.caller.chat ? "(active)" : ""}
        </Link>
        <Link href={`${base}/live-video`} className="font-medium text-slate-900 underline-offset-2 hover:underline">
          Live video {snapshot.caller.liveVideo ? `(${snapshot.caller.liveVideo.state.toLowerCase()})` : ""}
        </Link>
        <span className="ml-auto flex items-center gap-2">
          {closedAtUtc ? <Badge tone="neutral">Closed</Badge> : <Badge tone="warning">Open</Badge>}
          <Badge tone="neutral" className="font-mono">
            version {version}
          </Badge>
        </span>
      </nav>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <IncidentSnapshotView snapshot={snapshot} tileUrl={TILE_URL} />
        <SectionCard id="changes" title={`Changes (${changes.length})`}>
          <ChangeTimeline changes={changes} snapshot={snapshot} />
        </SectionCard>
      </div>
    </div>
  );
}
