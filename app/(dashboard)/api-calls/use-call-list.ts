"use client";
// The list: the calls the filters select, live (every 2 s), and held still behind an "N new" button
// while the reader has scrolled or selected a call (hold-new-rows.ts), as the Deliveries list is.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { holdNewRows } from "@/app/_components/list/hold-new-rows";
import { useTRPC } from "@/app/_trpc/react";
import type { TListCallsInput } from "@/server/client-calls/list-calls";

export const CALLS_LIST_ID = "api-calls-list";

export type CallList = ReturnType<typeof useCallList>;

export function useCallList(input: TListCallsInput) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc.calls.list.queryOptions(input),
    placeholderData: keepPreviousData,
    refetchInterval: 2_000,
  });
  const rows = query.data?.calls ?? [];
  const key = JSON.stringify(input);
  const [hold, setHold] = useState<{ key: string; anchor: string } | null>(null);
  const anchor = hold?.key === key ? hold.anchor : null;
  const { visible, newCount } = holdNewRows(rows, anchor);
  return {
    isPending: query.isPending,
    error: query.isError ? query.error : null,
    visible,
    newCount,
    held: anchor !== null,
    dropped: query.data?.dropped ?? { count: 0, lastDropAt: null },
    windowCut: query.data?.windowCut ?? false,
    holdAtTop: () => {
      if (anchor === null && rows[0]) setHold({ key, anchor: rows[0].id });
    },
    showNew: () => {
      setHold(null);
      document.getElementById(CALLS_LIST_ID)?.scrollTo({ top: 0 });
    },
  };
}
