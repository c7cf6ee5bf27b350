"use client";
// The delivery inspector: filters → keyset pages (useInfiniteQuery over deliveries.inspect) in a
// VirtualList, the attempt timeline of what is in view (per integration / per incident: the
// filters), and the selected delivery in full. Live: the first page refetches every second;
// pages further down are history and stay as loaded until the filters change.
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useMemo } from "react";
import { VirtualList } from "@/app/_components/list/virtual-list";
import { AttemptTimeline, type DeliveryLane } from "@/app/_components/timeline/attempt-timeline";
import { Alert } from "@/app/_components/ui/alert";
import { SectionCard } from "@/app/_components/ui/card";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { useTRPC } from "@/app/_trpc/react";
import { DeliveryDetail } from "./delivery-detail";
import { DeliveryFilters } from "./delivery-filters";
import { DeliveryListHeader, DeliveryRow, type InspectorRow, ROW_HEIGHT } from "./delivery-row";
import { type InspectorFilters, toQueryInput } from "./inspector-filters";
import { useInspectorFilters } from "./use-inspector-filters";

const TIMELINE_LANES = 40;

export function DeliveriesInspector({ initial }: { initial: InspectorFilters }) {
  const trpc = useTRPC();
  const [filters, update] = useInspectorFilters(initial);
  const deferred = useDeferredValue(filters);
  const input = toQueryInput(deferred);
  const integrations = useQuery(trpc.integrations.list.queryOptions());
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  const pages = useInfiniteQuery({
    ...trpc.deliveries.inspect.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor }),
    // Live while the user is near the top (≤ 3 pages loaded): a refetch reloads every loaded page,
    // so deep in history the list holds still instead of costing 50 queries a second.
    placeholderData: keepPreviousData,
    maxPages: 50,
    refetchInterval: (q) => ((q.state.data?.pages.length ?? 0) <= 3 ? 1_000 : false),
  });
  const rows: InspectorRow[] = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  // Oldest first, as a lane reads; the timeline shows what the filters select, newest 40.
  const lanes: DeliveryLane[] = useMemo(
    () =>
      rows
        .slice(0, TIMELINE_LANES)
        .reverse()
        .map((r) => ({
          requestId: r.requestId,
          producedAt: r.producedAt,
          state: r.state,
          attempts: r.attempts,
          label: `${deferred.integration ? "" : `${r.integration} · `}${r.event.replace(/^incident\./, "")}${input.incidentId ? "" : ` · ${r.incidentId.slice(0, 4)}`}`,
        })),
    [rows, deferred.integration, input.incidentId],
  );
  const nowIso = clock.data ? new Date(Date.now() + clock.data.offsetMs).toISOString() : undefined;
  const showLane = (incident: string, integration: string) => update({ incident, integration, state: "", q: "" });

  return (
    <div className="grid gap-4">
      <DeliveryFilters filters={filters} integrations={integrations.data?.map((i) => i.key) ?? []} onChange={update} />
      {pages.isError && (
        <Alert tone="danger" title="Could not load deliveries">
          {pages.error.message}
        </Alert>
      )}
      <SectionCard
        id="h-timeline"
        title={
          input.incidentId
            ? "Attempt timeline of this incident"
            : deferred.integration
              ? `Attempt timeline of ${deferred.integration}`
              : "Attempt timeline (newest 40 in view)"
        }
      >
        {lanes.length ? (
          <AttemptTimeline deliveries={lanes} nowIso={nowIso} onSelect={(selected) => update({ selected })} />
        ) : (
          <p className="text-sm text-slate-600">No deliveries match.</p>
        )}
      </SectionCard>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <SectionCard
          id="h-deliveries"
          title={`Deliveries (newest first, ${(pages.data?.pages.length ?? 0) <= 3 ? "live" : "paused while scrolled back"})`}
          bodyClassName="p-0"
        >
          <VirtualList<InspectorRow>
            items={rows}
            getKey={(r) => r.requestId}
            ariaLabel="Deliveries"
            estimateSize={ROW_HEIGHT}
            height="32rem"
            header={<DeliveryListHeader />}
            selectedKey={filters.selected || null}
            renderItem={(row, s) => <DeliveryRow row={row} active={s.active} selected={s.selected} />}
            onActivate={(row) => update({ selected: row.requestId })}
            hasMore={pages.hasNextPage}
            isLoadingMore={pages.isFetchingNextPage}
            onLoadMore={() => void pages.fetchNextPage()}
            empty={
              <EmptyState title={pages.isPending ? "Loading…" : "No deliveries match."}>
                Deliveries appear here as soon as a change is planned.
              </EmptyState>
            }
          />
        </SectionCard>
        <SectionCard id="h-detail" title="Delivery">
          {filters.selected ? (
            <DeliveryDetail
              key={filters.selected}
              requestId={filters.selected}
              clockOffsetMs={clock.data?.offsetMs ?? 0}
              onShowLane={showLane}
            />
          ) : (
            <p className="text-sm text-slate-600">
              Select a delivery (click, or ↑/↓ and Enter in the list) to see its request, responses and the snapshot
              diff.
            </p>
          )}
        </SectionCard>
      </div>
    </div>
  );
}
