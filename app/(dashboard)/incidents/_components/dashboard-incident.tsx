"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ChangeTimeline } from "@/app/_components/incident/change-timeline";
import { IncidentSnapshotView } from "@/app/_components/incident/incident-snapshot-view";
import { JsonView } from "@/app/_components/json/json-view";
import { Alert } from "@/app/_components/ui/alert";
import { Badge } from "@/app/_components/ui/badge";
import { SectionCard } from "@/app/_components/ui/card";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { useTRPC } from "@/app/_trpc/react";

const TILE_URL = process.env.NEXT_PUBLIC_MAP_TILE_URL || undefined;

/** An incident for integrators: the snapshot as a dispatcher sees it, as JSON, and its change records. Live. */
export function DashboardIncident({ incidentId }: { incidentId: string }) {
  const trpc = useTRPC();
  const incident = useQuery({ ...trpc.incidents.detail.queryOptions({ incidentId }), refetchInterval: 1_000 });
  if (incident.error) return <Alert tone="danger">{incident.error.message}</Alert>;
  if (incident.isPending) return <SkeletonRows rows={6} />;
  if (!incident.data)
    return (
      <EmptyState title="No such incident.">
        It may have been removed by a seed reset.{" "}
        <Link href="/incidents" className="underline">
          All incidents
        </Link>
      </EmptyState>
    );
  const { snapshot, changes, version, closedAtUtc } = incident.data;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Link href="/incidents" className="underline-offset-2 hover:underline">
          ← All incidents
        </Link>
        {closedAtUtc ? <Badge tone="neutral">Closed</Badge> : <Badge tone="warning">Open</Badge>}
        <Badge tone="neutral" className="font-mono">
          version {version}
        </Badge>
        <a href={snapshot.openUrl} className="underline-offset-2 hover:underline">
          Open in the portal (openUrl)
        </a>
        <Link href={`/simulator?incident=${incidentId}`} className="underline-offset-2 hover:underline">
          Simulate the caller
        </Link>
      </div>
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Tabs defaultValue="view">
          <TabsList aria-label="Snapshot views">
            <TabsTrigger value="view">Snapshot</TabsTrigger>
            <TabsTrigger value="json">JSON (v3)</TabsTrigger>
          </TabsList>
          <TabsContent value="view">
            <IncidentSnapshotView snapshot={snapshot} tileUrl={TILE_URL} />
          </TabsContent>
          <TabsContent value="json">
            <JsonView value={snapshot} expandDepth={2} />
          </TabsContent>
        </Tabs>
        <SectionCard id="changes" title={`Change records (${changes.length})`}>
          <ChangeTimeline changes={changes} snapshot={snapshot} />
        </SectionCard>
      </div>
    </div>
  );
}
