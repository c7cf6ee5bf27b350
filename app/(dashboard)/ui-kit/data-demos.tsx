"use client";
import { useCallback, useState } from "react";
import { JsonDiffView } from "@/app/_components/json/json-diff-view";
import { JsonView } from "@/app/_components/json/json-view";
import { VirtualList } from "@/app/_components/list/virtual-list";
import { AttemptTimeline } from "@/app/_components/timeline/attempt-timeline";
import { Timeline } from "@/app/_components/timeline/timeline";
import { Badge } from "@/app/_components/ui/badge";
import { Button } from "@/app/_components/ui/button";
import { Table, TBody, TD, TH, THead, TR } from "@/app/_components/ui/table";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/app/_components/ui/tabs";
import { SAMPLE_DELIVERIES, SAMPLE_NOW, sampleRows, type SampleRow } from "./sample-deliveries";
import { SAMPLE_PREVIOUS, SAMPLE_SNAPSHOT } from "./sample-snapshot";

const TOTAL = 100_000;
const PAGE = 1_000;

/** 100k rows arriving a page at a time, like the inspector's server-side pagination. */
export function VirtualListDemo() {
  const [rows, setRows] = useState<SampleRow[]>(() => sampleRows(0, PAGE));
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<SampleRow | null>(null);
  const loadMore = useCallback(() => {
    setLoading(true);
    setTimeout(() => {
      setRows((r) => [...r, ...sampleRows(r.length, PAGE)]);
      setLoading(false);
    }, 120);
  }, []);
  return (
    <div>
      <Button
        size="sm"
        variant="secondary"
        className="mb-2"
        disabled={rows.length === TOTAL}
        onClick={() => setRows(sampleRows(0, TOTAL))}
      >
        Load all 100,000
      </Button>
      <p className="mb-2 text-xs text-slate-600">
        <span data-testid="virtual-loaded">{rows.length.toLocaleString("en")}</span> of {TOTAL.toLocaleString("en")}{" "}
        loaded · focus the list, use ↑ ↓ PageUp PageDown Home End, Enter to open
        {chosen && (
          <>
            {" "}
            · opened <span className="font-mono">{chosen.id}</span>
          </>
        )}
      </p>
      <VirtualList
        ariaLabel="Sample deliveries"
        items={rows}
        getKey={(r) => r.id}
        estimateSize={36}
        height={320}
        hasMore={rows.length < TOTAL}
        isLoadingMore={loading}
        onLoadMore={loadMore}
        selectedKey={chosen?.id}
        onActivate={(r) => setChosen(r)}
        header={
          <div className="grid grid-cols-[5rem_1fr_8rem_4rem_7rem] gap-2 px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">
            <span>#</span>
            <span>Event</span>
            <span>Receiver</span>
            <span>Status</span>
            <span>At (UTC)</span>
          </div>
        }
        renderItem={(r) => (
          <div className="grid h-9 grid-cols-[5rem_1fr_8rem_4rem_7rem] items-center gap-2 px-3 text-sm">
            <span className="font-mono text-xs text-slate-500">{r.index + 1}</span>
            <span>{r.event}</span>
            <span>{r.receiver}</span>
            <Badge tone={r.status < 300 ? "success" : "danger"}>{r.status}</Badge>
            <span className="font-mono text-xs">{r.at.slice(11, 19)}</span>
          </div>
        )}
      />
    </div>
  );
}

export function TimelinesDemo() {
  return (
    <div className="grid gap-6">
      <AttemptTimeline deliveries={SAMPLE_DELIVERIES} nowIso={SAMPLE_NOW} />
      <Timeline
        ariaLabel="Incident changes"
        items={[
          {
            id: "1",
            at: "2026-11-22T06:00:00Z",
            title: "Incident created",
            detail: "by partner-cad · purpose Test",
            status: "info",
          },
          { id: "2", at: "2026-11-22T06:00:04Z", title: "AML location", detail: "±310 m", status: "neutral" },
          { id: "3", at: "2026-11-22T06:01:35Z", title: "Chat started", status: "success" },
          {
            id: "4",
            at: "2026-11-22T06:05:00Z",
            title: "Battery 14 %",
            detail: "below 15 %",
            status: "warning",
            meta: <Badge tone="warning">low</Badge>,
          },
          { id: "5", at: "2026-11-22T07:00:00Z", title: "Delivery to north-psap expired", status: "danger" },
        ]}
      />
    </div>
  );
}

export function JsonDemo() {
  return (
    <Tabs defaultValue="diff">
      <TabsList aria-label="JSON views">
        <TabsTrigger value="diff">Diff against previous</TabsTrigger>
        <TabsTrigger value="tree">Collapsible</TabsTrigger>
        <TabsTrigger value="table">Table</TabsTrigger>
      </TabsList>
      <TabsContent value="diff">
        <JsonDiffView value={SAMPLE_SNAPSHOT} previous={SAMPLE_PREVIOUS} maxHeight="24rem" />
      </TabsContent>
      <TabsContent value="tree">
        <JsonView value={SAMPLE_SNAPSHOT} expandDepth={1} maxHeight="24rem" />
      </TabsContent>
      <TabsContent value="table">
        <Table>
          <THead>
            <tr>
              <TH>Request</TH>
              <TH>State</TH>
              <TH>Attempts</TH>
            </tr>
          </THead>
          <TBody>
            {SAMPLE_DELIVERIES.map((d) => (
              <TR key={d.requestId}>
                <TD>{d.label}</TD>
                <TD>{d.state}</TD>
                <TD className="tabular-nums">{d.attempts.length}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </TabsContent>
    </Tabs>
  );
}
