"use client";
import { IncidentSnapshotView } from "@/app/_components/incident/incident-snapshot-view";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { SAMPLE_SNAPSHOT, SAMPLE_SPARSE } from "./sample-snapshot";

export function SnapshotDemo() {
  return (
    <Tabs defaultValue="full">
      <TabsList aria-label="Sample snapshots">
        <TabsTrigger value="full">Test incident, full</TabsTrigger>
        <TabsTrigger value="sparse">Real incident, just created (nulls)</TabsTrigger>
      </TabsList>
      <TabsContent value="full"><IncidentSnapshotView snapshot={SAMPLE_SNAPSHOT} /></TabsContent>
      <TabsContent value="sparse"><IncidentSnapshotView snapshot={SAMPLE_SPARSE} /></TabsContent>
    </Tabs>
  );
}
