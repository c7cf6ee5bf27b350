"use client";
// The delivery inspector: filters and per-integration health, then the list and the selected
// delivery SIDE BY SIDE (the detail sticky beside the list, both in the first viewport at 1280×800),
// and the attempt timeline of what is in view, collapsed by default. Live: the first page refetches
// every second; while the reader has scrolled or selected, new rows are held back behind an "N new"
// button instead of moving the list (hold-new-rows.ts).
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useDeferredValue, useMemo, useRef, useState } from "react";
import { holdNewRows } from "@/app/_components/list/hold-new-rows";
import { VirtualList } from "@/app/_components/list/virtual-list";
import { AttemptTimeline, type DeliveryLane } from "@/app/_components/timeline/attempt-timeline";
import { Alert } from "@/app/_components/ui/alert";
import { Button } from "@/app/_components/ui/button";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { useWorkbenchNow } from "@/app/_components/ui/use-workbench-now";
import { useTRPC } from "@/app/_trpc/react";
import { describeDeliveryStatus } from "@/server/webhooks/admin/describe-delivery-status";
import { DeliveryDetail } from "./delivery-detail";
import { DeliveryFilters } from "./delivery-filters";
import { DeliveryListHeader, DeliveryRow, type InspectorRow, ROW_HEIGHT } from "./delivery-row";
import { IntegrationHealthStrip } from "./integration-health-strip";
import { filterErrors, type InspectorFilters, toQueryInput } from "./inspector-filters";
import { useInspectorFilters } from "./use-inspector-filters";

const TIMELINE_LANES = 40;
const LIST_ID = "deliveries-list";

export function DeliveriesInspector({ initial }: { initial: InspectorFilters }) {
  const trpc = useTRPC();
  const [filters, update] = useInspectorFilters(initial);
  const deferred = useDeferredValue(filters);
  const input = toQueryInput(deferred);
  const errors = filterErrors(filters);
  const integrations = useQuery(trpc.integrations.list.queryOptions());
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  const nowMs = useWorkbenchNow(clock.data?.offsetMs);
  const pages = useInfiniteQuery({
    ...trpc.deliveries.inspect.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor }),
    // Live while the user is near the top (≤ 3 pages loaded): a refetch reloads every loaded page,
    // so deep in history the list holds still instead of costing 50 queries a second.
    placeholderData: keepPreviousData,
    maxPages: 50,
    refetchInterval: (q) => ((q.state.data?.pages.length ?? 0) <= 3 ? 1_000 : false),
  });
  const rows: InspectorRow[] = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);

  // Held: the id of the row on top when the reader scrolled or selected; null while following live.
  const queryKey = JSON.stringify(input);
  const [hold, setHold] = useState<{ key: string; anchor: string } | null>(null);
  const anchor = hold?.key === queryKey ? hold.anchor : null;
  const holdAtTop = () => {
    if (anchor === null && rows[0]) setHold({ key: queryKey, anchor: rows[0].id });
  };
  const { visible, newCount } = holdNewRows(rows, anchor);
  const showNew = () => {
    setHold(null);
    document.getElementById(LIST_ID)?.scrollTo({ top: 0 });
  };

  const lanes: DeliveryLane[] = useMemo(
    () =>
      visible
        .slice(0, TIMELINE_LANES)
        .reverse()
        .map((r) => ({
          requestId: r.requestId,
          producedAt: r.producedAt,
          state: r.state,
          attempts: r.attempts,
          statusLabel: describeDeliveryStatus(r, null).label,
          label: `${deferred.integration ? "" : `${r.integration} · `}${r.event.replace(/^incident\./, "")}${input.incidentId ? "" : ` · ${r.incidentId.slice(0, 8)}`}`,
        })),
    [visible, deferred.integration, input.incidentId],
  );
  const detailRef = useRef<HTMLElement>(null);
  const select = (selected: string) => {
    holdAtTop();
    update({ selected });
  };
  // From the timeline (below the fold when open): bring the selected delivery into view and focus it.
  const selectFromTimeline = (selected: string) => {
    select(selected);
    requestAnimationFrame(() => {
      detailRef.current?.scrollIntoView({ block: "start", behavior: "instant" as ScrollBehavior });
      detailRef.current?.focus({ preventScroll: true });
    });
  };
  const showLane = (incident: string, integration: string) =>
    update({ incident, integration, state: "", status: "", failed: "", within: "", q: "" });
  const live = anchor === null && (pages.data?.pages.length ?? 0) <= 3;

  return (
    <div className="grid gap-3">
      <a
        href={`#${LIST_ID}`}
        onClick={(e) => {
          e.preventDefault();
          document.getElementById(LIST_ID)?.focus();
        }}
        className="sr-only focus:not-sr-only focus:w-fit focus:rounded focus:bg-white focus:px-3 focus:py-1 focus:text-sm focus:ring-2 focus:ring-orange-500"
      >
        Skip to the deliveries list
      </a>
      <DeliveryFilters
        filters={filters}
        errors={errors}
        integrations={integrations.data?.map((i) => i.key) ?? []}
        onChange={update}
      />
      <IntegrationHealthStrip
        nowMs={nowMs}
        current={filters.integration}
        onPick={(integration) => update({ integration, selected: "" })}
      />
      {pages.isError && (
        <Alert tone="danger" title="Could not load deliveries">
          {pages.error.message}
        </Alert>
      )}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,11fr)_minmax(0,9fr)] 2xl:grid-cols-[minmax(0,5fr)_minmax(0,4fr)]">
        <section
          aria-labelledby="h-deliveries"
          className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs"
        >
          <header className="flex min-h-11 flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
            <h2 id="h-deliveries" className="text-sm font-semibold text-slate-900">
              Deliveries{" "}
              <span className="font-normal text-slate-600">
                (newest first, {live ? "live" : anchor !== null ? "held while you read" : "paused while scrolled back"})
              </span>
            </h2>
            {newCount > 0 && (
              <Button size="sm" variant="secondary" onClick={showNew} data-testid="show-new">
                {newCount} new — show
              </Button>
            )}
          </header>
          {pages.isPending ? (
            <div className="p-4">
              <SkeletonRows rows={8} />
            </div>
          ) : (
            <VirtualList<InspectorRow>
              items={visible}
              getKey={(r) => r.requestId}
              ariaLabel="Deliveries"
              listId={LIST_ID}
              estimateSize={ROW_HEIGHT}
              height="max(18rem, calc(100vh - 24rem))"
              className="rounded-none border-0"
              header={<DeliveryListHeader />}
              selectedKey={filters.selected || null}
              renderItem={(row, s) => <DeliveryRow row={row} selected={s.selected} nowMs={nowMs} />}
              onActivate={(row) => select(row.requestId)}
              onScrollOffset={(top) => (top > 0 ? holdAtTop() : undefined)}
              hasMore={pages.hasNextPage}
              isLoadingMore={pages.isFetchingNextPage}
              onLoadMore={() => void pages.fetchNextPage()}
              empty={
                <EmptyState title="No deliveries match." className="m-4">
                  {Object.values(errors).length
                    ? "Fix the filter marked above."
                    : "Deliveries appear here as soon as a change is planned for a receiver: raise an incident in the Simulator, or widen the filters."}
                </EmptyState>
              }
            />
          )}
        </section>
        <section
          ref={detailRef}
          tabIndex={-1}
          aria-labelledby="h-detail"
          data-testid="detail-panel"
          className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-orange-500 lg:sticky lg:top-14 lg:max-h-[calc(100vh-4.5rem)] lg:overflow-y-auto"
        >
          <header className="border-b border-slate-200 px-4 py-2.5">
            <h2 id="h-detail" className="text-sm font-semibold text-slate-900">
              Delivery
            </h2>
          </header>
          <div className="min-w-0 p-4">
            {errors.selected ? (
              <Alert tone="danger" title="Delivery not found">
                {errors.selected} Pick one from the list.
              </Alert>
            ) : filters.selected ? (
              <DeliveryDetail
                key={filters.selected}
                requestId={filters.selected}
                nowMs={nowMs}
                clockOffsetMs={clock.data?.offsetMs ?? 0}
                onShowLane={showLane}
                onSelect={select}
              />
            ) : (
              <p className="text-sm text-slate-600">
                Select a delivery (click it, or Tab to the list, ↑/↓ and Enter) to see why it is in its state, its
                request and responses, and what changed in the incident.
              </p>
            )}
          </div>
        </section>
      </div>
      {/* Collapsed by default: forty lanes are a question about the whole stream ("what is this
          receiver doing over time"), asked now and then; open, they would push the list and the
          selection out of the first viewport. A click on a lane selects it and brings the detail
          into view with focus. */}
      <details
        className="group min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs"
        data-testid="timeline-details"
      >
        <summary className="cursor-pointer px-4 py-2.5 text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-orange-500">
          <span id="h-timeline">
            {input.incidentId
              ? "Attempt timeline of this incident"
              : deferred.integration
                ? `Attempt timeline of ${deferred.integration}`
                : `Attempt timeline (newest ${Math.min(TIMELINE_LANES, visible.length)} in view)`}
          </span>{" "}
          <span className="font-normal text-slate-600">
            — backoff gaps, events stalled behind a failing head, expiry
          </span>
        </summary>
        <div className="border-t border-slate-200 p-4" role="region" aria-labelledby="h-timeline">
          {lanes.length ? (
            <AttemptTimeline
              deliveries={lanes}
              nowIso={nowMs === null ? undefined : new Date(nowMs).toISOString()}
              onSelect={selectFromTimeline}
            />
          ) : (
            <p className="text-sm text-slate-600">No deliveries match.</p>
          )}
        </div>
      </details>
    </div>
  );
}
