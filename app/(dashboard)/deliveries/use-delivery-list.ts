"use client";
// The inspector's list: the pages of deliveries the filters select, live near the top, and the rows
// held back behind an "N new" button while the reader has scrolled or selected (hold-new-rows.ts).
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { holdNewRows } from "@/app/_components/list/hold-new-rows";
import { useTRPC } from "@/app/_trpc/react";
import type { InspectorRow } from "./delivery-row";
import type { toQueryInput } from "./inspector-filters";

/** The list's element id: the skip link's target, and what "N new — show" scrolls to the top. */
export const DELIVERIES_LIST_ID = "deliveries-list";
/** Live while at most this many pages are loaded (see the refetch below). */
const LIVE_PAGES = 3;

export type DeliveryList = ReturnType<typeof useDeliveryList>;

export function useDeliveryList(input: ReturnType<typeof toQueryInput>) {
  const trpc = useTRPC();
  const pages = useInfiniteQuery({
    ...trpc.deliveries.inspect.infiniteQueryOptions(input, { getNextPageParam: (last) => last.nextCursor }),
    // Live while the user is near the top (≤ 3 pages loaded): a refetch reloads every loaded page,
    // so deep in history the list holds still instead of costing 50 queries a second.
    placeholderData: keepPreviousData,
    maxPages: 50,
    refetchInterval: (q) => ((q.state.data?.pages.length ?? 0) <= LIVE_PAGES ? 1_000 : false),
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
    document.getElementById(DELIVERIES_LIST_ID)?.scrollTo({ top: 0 });
  };

  return {
    isPending: pages.isPending,
    error: pages.isError ? pages.error : null,
    visible,
    newCount,
    held: anchor !== null,
    live: anchor === null && (pages.data?.pages.length ?? 0) <= LIVE_PAGES,
    hasMore: pages.hasNextPage,
    isLoadingMore: pages.isFetchingNextPage,
    loadMore: () => void pages.fetchNextPage(),
    holdAtTop,
    showNew,
  };
}
