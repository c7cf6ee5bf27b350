"use client";
// The list half: newest first, live or held while a call is read, "N new — show" while new calls
// are held back, and the calls the recorder could not keep under load.
import { VirtualList } from "@/app/_components/list/virtual-list";
import { Button } from "@/app/_components/ui/button";
import { EmptyState } from "@/app/_components/ui/empty-state";
import { SkeletonRows } from "@/app/_components/ui/skeleton";
import type { CallSummary } from "@/server/client-calls/list-calls";
import { CallListHeader, CallRow, ROW_HEIGHT } from "./call-row";
import { CALLS_LIST_ID, type CallList } from "./use-call-list";

export function CallListPanel({
  list,
  selected,
  nowMs,
  filtersInvalid,
  onSelect,
}: {
  list: CallList;
  selected: string;
  nowMs: number | null;
  filtersInvalid: boolean;
  onSelect: (id: string) => void;
}) {
  return (
    <section aria-labelledby="h-calls" className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-xs">
      <header className="flex min-h-11 flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-2">
        <h2 id="h-calls" className="text-sm font-semibold text-slate-900">
          API calls{" "}
          <span className="font-normal text-slate-600">
            (newest first, {list.held ? "held while you read" : "live"})
          </span>
        </h2>
        {list.newCount > 0 && (
          <Button size="sm" variant="secondary" onClick={list.showNew} data-testid="show-new">
            {list.newCount} new — show
          </Button>
        )}
      </header>
      {list.dropped.count > 0 && (
        <p
          role="status"
          className="border-b border-amber-200 bg-amber-50 px-4 py-1.5 text-xs text-amber-900"
          data-testid="calls-dropped"
        >
          {list.dropped.count} calls not recorded under load (the last at {list.dropped.lastDropAt}): the calls were
          answered, only their record is missing.
        </p>
      )}
      {list.isPending ? (
        <div className="p-4">
          <SkeletonRows rows={8} />
        </div>
      ) : (
        <VirtualList<CallSummary>
          items={list.visible}
          getKey={(c) => c.id}
          ariaLabel="API calls"
          listId={CALLS_LIST_ID}
          estimateSize={ROW_HEIGHT}
          height="max(18rem, calc(100vh - 24rem))"
          className="rounded-none border-0"
          header={<CallListHeader />}
          selectedKey={selected || null}
          renderItem={(call, s) => <CallRow call={call} selected={s.selected} nowMs={nowMs} />}
          onActivate={(call) => onSelect(call.id)}
          onScrollOffset={(top) => (top > 0 ? list.holdAtTop() : undefined)}
          empty={
            <EmptyState title="No API calls match." className="m-4">
              {filtersInvalid
                ? "Fix the filter marked above."
                : "Calls your partner system makes to /connect/token, /v1 and /Account appear here as they are answered: follow README's first call, run the Partner console, or widen the window."}
            </EmptyState>
          }
        />
      )}
      {list.windowCut && (
        <p className="border-t border-slate-200 px-4 py-1.5 text-xs text-slate-600">
          The window holds more than 5,000 calls: the newest 5,000 are read. Narrow it by client or time.
        </p>
      )}
    </section>
  );
}
