"use client";
// The delivery inspector: filters and per-integration health, then the list and the selected
// delivery SIDE BY SIDE (the detail sticky beside the list, both in the first viewport at 1280×800),
// and the attempt timeline of what is in view, collapsed by default. Live: the first page refetches
// every second; while the reader has scrolled or selected, new rows are held back behind an "N new"
// button instead of moving the list (use-delivery-list.ts).
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue } from "react";
import { Alert } from "@/app/_components/ui/alert";
import { useWorkbenchNow } from "@/app/_components/ui/use-workbench-now";
import { useTRPC } from "@/app/_trpc/react";
import { AttemptTimelinePanel } from "./attempt-timeline-panel";
import { DeliveryDetailPanel } from "./delivery-detail-panel";
import { DeliveryFilters } from "./delivery-filters";
import { DeliveryListPanel } from "./delivery-list-panel";
import { IntegrationHealthStrip } from "./integration-health-strip";
import { filterErrors, type InspectorFilters, toQueryInput } from "./inspector-filters";
import { DELIVERIES_LIST_ID, useDeliveryList } from "./use-delivery-list";
import { useDeliverySelection } from "./use-delivery-selection";
import { useInspectorFilters } from "./use-inspector-filters";

export function DeliveriesInspector({ initial }: { initial: InspectorFilters }) {
  const trpc = useTRPC();
  const [filters, update] = useInspectorFilters(initial);
  const deferred = useDeferredValue(filters);
  const input = toQueryInput(deferred);
  const errors = filterErrors(filters);
  const integrations = useQuery(trpc.integrations.list.queryOptions());
  const clock = useQuery({ ...trpc.clock.show.queryOptions(), refetchInterval: 2_000 });
  const nowMs = useWorkbenchNow(clock.data?.offsetMs);
  const list = useDeliveryList(input);
  const { detailRef, select, selectFromTimeline, showLane } = useDeliverySelection({
    holdAtTop: list.holdAtTop,
    update,
  });

  return (
    <div className="grid gap-3">
      <SkipToList />
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
      {list.error && (
        <Alert tone="danger" title="Could not load deliveries">
          {list.error.message}
        </Alert>
      )}
      <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,11fr)_minmax(0,9fr)] 2xl:grid-cols-[minmax(0,5fr)_minmax(0,4fr)]">
        <DeliveryListPanel
          list={list}
          selected={filters.selected}
          nowMs={nowMs}
          filtersInvalid={Object.values(errors).length > 0}
          onSelect={select}
        />
        <DeliveryDetailPanel
          ref={detailRef}
          selected={filters.selected}
          selectedError={errors.selected}
          nowMs={nowMs}
          clockOffsetMs={clock.data?.offsetMs ?? 0}
          onShowLane={showLane}
          onSelect={select}
        />
      </div>
      <AttemptTimelinePanel
        rows={list.visible}
        scope={{ integration: deferred.integration, incidentId: input.incidentId }}
        nowMs={nowMs}
        onSelect={selectFromTimeline}
      />
    </div>
  );
}

/** The page's skip link lands on the content; this one, next, on the list itself. */
function SkipToList() {
  return (
    <a
      href={`#${DELIVERIES_LIST_ID}`}
      onClick={(e) => {
        e.preventDefault();
        document.getElementById(DELIVERIES_LIST_ID)?.focus();
      }}
      className="sr-only focus:not-sr-only focus:w-fit focus:rounded focus:bg-white focus:px-3 focus:py-1 focus:text-sm focus:ring-2 focus:ring-orange-500"
    >
      Skip to the deliveries list
    </a>
  );
}
