"use client";
// The list half of the inspector: newest first, its mode in the heading (live, held while a delivery
// is read, paused while scrolled back), and the "N new — show" button while new rows are held back.
import { VirtualList } from "@/app/_components/list/virtual-list";
import { Button } from "@/app/_components/ui/button";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import { DeliveryListHeader, DeliveryRow, type InspectorRow, ROW_HEIGHT } from "./delivery-row";
import { DELIVERIES_LIST_ID, type DeliveryList } from "./use-delivery-list";

export function DeliveryListPanel({
  list,
  selected,
  nowMs,
  filtersInvalid,
  onSelect,
}: {
  list: DeliveryList;
  selected: string;
  nowMs: number | null;
  /** A filter is marked invalid above: the empty list says to fix it. */
  filtersInvalid: boolean;
  onSelect: (requestId: string) => void;
}) {
  return (
    <section aria-labelledby="h-deliveries" className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs">
      <header className="flex min-h-11 flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 id="h-deliveries" className="text-sm font-semibold text-slate-900">
          Deliveries{" "}
          <span className="font-normal text-slate-600">
            (newest first, {list.live ? "live" : list.held ? "held while you read" : "paused while scrolled back"})
          </span>
        </h2>
        {list.newCount > 0 && (
          <Button size="sm" variant="secondary" onClick={list.showNew} data-testid="show-new">
            {list.newCount} new — show
          </Button>
        )}
      </header>
      {list.isPending ? (
        <div className="p-4">
          <SkeletonRows rows={8} />
        </div>
      ) : (
        <VirtualList<InspectorRow>
          items={list.visible}
          getKey={(r) => r.requestId}
          ariaLabel="Deliveries"
          listId={DELIVERIES_LIST_ID}
          estimateSize={ROW_HEIGHT}
          height="max(18rem, calc(100vh - 24rem))"
          className="rounded-none border-0"
          header={<DeliveryListHeader />}
          selectedKey={selected || null}
          renderItem={(row, s) => <DeliveryRow row={row} selected={s.selected} nowMs={nowMs} />}
          onActivate={(row) => onSelect(row.requestId)}
          onScrollOffset={(top) => (top > 0 ? list.holdAtTop() : undefined)}
          hasMore={list.hasMore}
          isLoadingMore={list.isLoadingMore}
          onLoadMore={list.loadMore}
          empty={
            <EmptyState title="No deliveries match." className="m-4">
              {filtersInvalid
                ? "Fix the filter marked above."
                : "Deliveries appear here as soon as a change is planned for a receiver: raise an incident in the Simulator, or widen the filters."}
            </EmptyState>
          }
        />
      )}
    </section>
  );
}
