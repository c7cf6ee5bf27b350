"use client";
import { IncidentSnapshotView } from "@/app/_components/incident/incident-snapshot-view";
import { CallerTrackMap } from "@/app/_components/map/caller-track-map";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { SAMPLE_SNAPSHOT, SAMPLE_SPARSE } from "./sample-snapshot";

export function SnapshotDemo() {
  return (
    <Tabs defaultValue="full">
      <TabsList aria-label="Sample snapshots">
        <TabsTrigger value="full">Test incident, full</TabsTrigger>
        <TabsTrigger value="sparse">Real incident, just created (nulls)</TabsTrigger>
        <TabsTrigger value="tiles">Map with (debug) tiles</TabsTrigger>
      </TabsList>
      <TabsContent value="full">
        <IncidentSnapshotView snapshot={SAMPLE_SNAPSHOT} />
      </TabsContent>
      <TabsContent value="sparse">
        <IncidentSnapshotView snapshot={SAMPLE_SPARSE} />
      </TabsContent>
      <TabsContent value="tiles">
        <p className="mb-2 text-sm text-slate-600">
          With <code className="font-mono text-xs">NEXT_PUBLIC_MAP_TILE_URL</code> set, tiles are drawn under the
          tracks; these debug tiles show their z/x/y.
        </p>
        <CallerTrackMap
          tracks={SAMPLE_SNAPSHOT.caller.tracks}
          tileUrl="/ui-kit/debug-tiles/{z}/{x}/{y}"
          attribution="debug tiles"
        />
      </TabsContent>
    </Tabs>
  );
}
